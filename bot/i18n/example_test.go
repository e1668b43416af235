package i18n_test

import (
	"fmt"

	"github.com/kulami/kulami/bot/i18n"
)

func Example() {
	for _, locale := range []string{"en-US", "fr", "es-419", "de", "ja"} {
		lang := i18n.FromLocale(locale)
		fmt.Printf("%s: %s · %s\n", locale, lang.N("draw.points", 0), lang.T("draw.no_hole", "Player", "Ann", "Move", 1200))
	}
	// Output:
	// en-US: 0 points · Ann has no legal hole after move 1,200
	// fr: 0 point · Ann n’a plus de case jouable après le coup 1 200
	// es-419: 0 puntos · Ann no tiene hueco legal tras la jugada 1.200
	// de: 0 Punkte · Ann hat nach Zug 1.200 keine erlaubte Mulde
	// ja: 0 points · Ann has no legal hole after move 1,200
}

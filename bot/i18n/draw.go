package i18n

import (
	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/engine"
)

// Draw returns the texts of a board image in l, for draw.Options.Text.
// The messages draw.* of the files name their placeholders ({{.Player}},
// {{.Move}}, …); Draw turns them into draw's own ({name}, {n}, {a}, {b}).
func (l Lang) Draw() draw.Text {
	return draw.Text{
		Colors:         [2]string{engine.Red: l.T("color.red"), engine.Black: l.T("color.black")},
		ColourBlindRed: l.T("draw.colour_blind_red"),
		Rules: [4]string{
			engine.Basic: l.T("rules.basic"), engine.Area: l.T("rules.area"),
			engine.Lines: l.T("rules.lines"), engine.Full: l.T("rules.full"),
		},
		Number:       l.Number,
		One:          l.One,
		Score:        l.T("draw.score", "Points", "{a}", "Panels", "{b}"),
		Points:       l.drawPlural("draw.points"),
		Panels:       l.drawPlural("draw.panels"),
		Bonus:        l.T("draw.bonus", "Points", "{n}"),
		BonusArea:    l.T("draw.bonus_area", "Points", "{n}"),
		BonusLines:   l.T("draw.bonus_lines", "Points", "{n}"),
		KeyLegal:     l.T("draw.key_legal"),
		KeyLast:      l.T("draw.key_last"),
		KeyPrev:      l.T("draw.key_prev"),
		KeyClosed:    l.T("draw.key_closed"),
		KeyHeld:      l.T("draw.key_held"),
		KeyArea:      l.T("draw.key_area"),
		KeyLine:      l.T("draw.key_line"),
		Playing:      l.T("draw.playing", "Move", "{n}", "Player", "{name}", "Color", "{a}", "Rules", "{b}"),
		PlayingColor: l.T("draw.playing_color", "Move", "{n}", "Color", "{a}", "Rules", "{b}"),
		Wins:         l.T("draw.wins", "Player", "{name}", "Points", "{a}", "Against", "{b}"),
		Won:          l.T("draw.won", "Player", "{name}"),
		DrawScore:    l.T("draw.draw_score", "Red", "{a}", "Black", "{b}"),
		GameOver:     l.T("draw.game_over"),
		NoHole:       l.T("draw.no_hole", "Player", "{name}", "Move", "{n}"),
		AllPlaced:    l.T("draw.all_placed", "Marbles", "{n}"),
		ColPanels:    l.T("draw.col_panels"),
		ColArea:      l.T("draw.col_area"),
		ColLines:     l.T("draw.col_lines"),
		ColTotal:     l.T("draw.col_total"),
	}
}

// DrawYou returns the texts of a board image in l for the one who plays
// the colour to move, such as a puzzle's solver: its footer says "your
// move", where Draw's would put the player's name in a sentence.
func (l Lang) DrawYou() draw.Text {
	t := l.Draw()
	t.Playing = l.T("draw.playing_you", "Move", "{n}", "Color", "{a}", "Rules", "{b}")
	t.PlayingColor = t.Playing
	return t
}

// drawPlural returns the singular and plural forms of the plural message
// id with draw's {n} for the count.
func (l Lang) drawPlural(id string) draw.Plural {
	form := func(count int) string {
		return l.render(id, count, map[string]any{"Count": "{n}"})
	}
	// 1 is in the form "one" and 2 in "other" in every language with
	// these two forms.
	return draw.Plural{One: form(1), Other: form(2)}
}

// Chart returns the texts of a win-chance chart in l, of a game between
// red and black (their names as the chart shows them, in Chart.Names):
// the title names both, and the top and the bottom of the plot who wins
// there.
func (l Lang) Chart(red, black string) draw.ChartTexts {
	return draw.ChartTexts{
		Title:     l.T("chart.title", "Red", red, "Black", black),
		Move:      l.T("chart.move"),
		RedWins:   l.T("chart.wins", "Player", red),
		BlackWins: l.T("chart.wins", "Player", black),
		Percent:   l.Percent,
	}
}

package draw_test

import (
	"bytes"
	"fmt"
	"image/png"

	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/engine"
)

func ExampleRender() {
	p := engine.NewPosition(engine.Square(), engine.Red)
	for _, m := range []string{"D4", "D7", "F7"} {
		if err := p.PlayMove(m); err != nil {
			panic(err)
		}
	}
	var buf bytes.Buffer
	err := draw.Render(&buf, &p, draw.Options{
		Names: [2]string{engine.Red: "alice", engine.Black: "bob"},
		Rules: engine.Full,
	})
	if err != nil {
		panic(err)
	}
	cfg, err := png.DecodeConfig(&buf)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d×%d\n", cfg.Width, cfg.Height)
	// Output: 800×979
}

func ExampleHoleCenter() {
	c, _ := engine.ParseCell("A1")
	fmt.Println(draw.HoleCenter(engine.Square(), c, draw.Options{}))
	fmt.Println(draw.HoleCenter(engine.Square(), c, draw.Options{Width: 400}))
	// Output:
	// (92,184)
	// (46,92)
}

package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/kulami/kulami/engine"
)

// The names of the kinds of layout the commands accept.
const (
	kindSquare    = "square"
	kindRandom    = "random"
	kindIrregular = "irregular"
)

func runLayout(_ context.Context, e *env, args []string) error {
	fs := newFlags("layout")
	var seed seedFlag
	fs.Var(&seed, "seed", e.flagUsage("layout", "seed"))
	rest, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 1 {
		return &usageError{e.lang.T("cli.layout.one_layout", "Count", len(rest), "Args", strings.Join(rest, " "))}
	}
	spec := kindSquare
	if len(rest) == 1 {
		spec = rest[0]
	}
	l, note, err := e.chooseLayout(spec, seed, "kulami layout "+spec)
	if err != nil {
		return err
	}
	p := e.newPrinter()
	p.line(p.lang.T("cli.layout_line", "Layout", l))
	if note != "" {
		p.printf("%s\n", note)
	}
	p.printf("\n")
	empty := engine.NewPosition(l, engine.Red)
	p.board(&empty, 0)
	return p.err
}

// seedFlag is the value of a --seed flag; it remembers whether it was
// given.
type seedFlag struct {
	value uint64
	set   bool
}

func (s *seedFlag) String() string {
	if s == nil || !s.set {
		return ""
	}
	return strconv.FormatUint(s.value, 10)
}

func (s *seedFlag) Set(v string) error {
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return errors.New("a seed is a whole number from 0 to 18446744073709551615") // worded by env.flagError
	}
	s.value, s.set = n, true
	return nil
}

// chooseLayout returns the layout that spec names: a kind (square,
// random, irregular) or a layout string. A random kind uses seed when it
// was given and a seed from the clock otherwise, and note then tells the
// seed and how to make the layout again: again is the command line that
// chose it, without --seed. A spec that is neither a kind nor a valid
// layout string, or a seed given for a layout that is not random, is a
// *usageError.
func (e *env) chooseLayout(spec string, seed seedFlag, again string) (l *engine.Layout, note string, err error) {
	var gen func(uint64) *engine.Layout
	switch spec {
	case kindRandom:
		gen = engine.RandomSquare
	case kindIrregular:
		gen = engine.RandomIrregular
	}
	if gen == nil {
		if seed.set {
			return nil, "", &usageError{e.lang.T("cli.layout.seed_not_random", "Layout", fmt.Sprintf("%q", spec))}
		}
		if spec == kindSquare {
			return engine.Square(), "", nil
		}
		if !strings.Contains(spec, "/") { // every valid layout string has rows
			return nil, "", &usageError{e.lang.T("cli.layout.unknown", "Layout", fmt.Sprintf("%q", spec), "Example", engine.SquareString)}
		}
		if l, err = engine.ParseLayout(spec); err != nil {
			return nil, "", &usageError{e.parseError(err).Error()}
		}
		return l, "", nil
	}
	s := seed.value
	if !seed.set {
		// A seed of at most nine digits is easy to type again.
		s = uint64(e.now().UnixNano()) % 1_000_000_000
	}
	n := strconv.FormatUint(s, 10)
	return gen(s), e.lang.T("cli.layout.seed", "Seed", n, "Again", again+" --seed "+n), nil
}

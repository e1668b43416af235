package puzzle

import (
	"math/bits"

	"github.com/kulami/kulami/engine"
)

// Theme is an idea of a puzzle that the engine recognises in its solution.
type Theme string

// The themes, in the order a puzzle lists them (doc.go defines each).
const (
	OneMove    Theme = "one-move"    // the solution is one move
	TwoMoves   Theme = "two-moves"   // two moves of the solver
	ThreeMoves Theme = "three-moves" // three moves of the solver
	LastHole   Theme = "last-hole"   // the first move fills the last free hole of its panel
	PanelTie   Theme = "panel-tie"   // the first move breaks a tie on a panel both colours are on
	Blockade   Theme = "blockade"    // the line leaves the opponent no legal hole before the marbles run out
	AreaBonus  Theme = "area"        // the first move changes the area bonus
	LineBonus  Theme = "lines"       // the first move changes the lines bonus
)

// Themes lists every theme, in order.
var Themes = []Theme{OneMove, TwoMoves, ThreeMoves, LastHole, PanelTie, Blockade, AreaBonus, LineBonus}

func (t Theme) known() bool {
	for _, k := range Themes {
		if k == t {
			return true
		}
	}
	return false
}

// themesOf names the themes of a solution line from pos under rules.
func themesOf(pos engine.Position, rules engine.Rules, line []engine.Hole) []Theme {
	found := map[Theme]bool{}
	found[[]Theme{OneMove, TwoMoves, ThreeMoves}[(len(line)-1)/2]] = true

	l := pos.Layout()
	first := line[0]
	panel := l.PanelHoles(l.PanelOf(first))
	me, them := pos.ToMove(), pos.ToMove().Other()
	if panel&^pos.Occupied() == 1<<first {
		found[LastHole] = true
	}
	mine, theirs := bits.OnesCount64(uint64(pos.Stones(me)&panel)), bits.OnesCount64(uint64(pos.Stones(them)&panel))
	if mine == theirs && mine > 0 {
		found[PanelTie] = true
	}
	before := pos.Score(rules)
	after := pos
	after.Apply(first)
	now := after.Score(rules)
	if rules.CountsArea() && now[me].Area-now[them].Area != before[me].Area-before[them].Area {
		found[AreaBonus] = true
	}
	if rules.CountsLines() && now[me].Lines-now[them].Lines != before[me].Lines-before[them].Lines {
		found[LineBonus] = true
	}
	p := pos
	for i, h := range line {
		p.Apply(h)
		if i%2 == 0 && p.Legal() == 0 && p.Ply() < engine.MaxPly {
			found[Blockade] = true
		}
	}
	var ts []Theme
	for _, t := range Themes {
		if found[t] {
			ts = append(ts, t)
		}
	}
	return ts
}

package ai

import (
	"math/bits"

	"github.com/kulami/kulami/engine"
)

// playout plays p to the end of the game. Without greed every move is
// drawn uniformly from the legal ones (engine.Position.Playout); with it,
// a move is now and then drawn from those with the best panel gain
// instead, so that the random games fight over panels a little as players
// do.
func (t *tree) playout(p *engine.Position) {
	if t.greed == 0 {
		p.Playout(&t.rand)
		return
	}
	for legal := p.Legal(); legal != 0; legal = p.Legal() {
		if t.rand.Uint64() < t.greed {
			legal = t.gainers(p, legal)
		}
		p.Apply(t.rand.Pick(legal))
	}
}

// gainers returns the holes of legal where a marble of the player to move
// gains most on the panels: the size of the panel if it takes the lead in
// it or draws level, nothing otherwise. If no hole gains, it returns legal.
func (t *tree) gainers(p *engine.Position, legal engine.Holes) engine.Holes {
	mine, theirs := uint64(p.Stones(p.ToMove())), uint64(p.Stones(p.ToMove().Other()))
	var best engine.Holes
	bestGain := 0
	for h := range legal.All() {
		gain := panelGain(mine, theirs, t.panels[h])
		switch {
		case gain > bestGain:
			best, bestGain = 1<<h, gain
		case gain == bestGain && gain > 0:
			best |= 1 << h
		}
	}
	if best == 0 {
		return legal
	}
	return best
}

// panelGain returns what a marble of the player with the marbles mine, in
// a panel with the holes pm, gains on the panels against the marbles
// theirs: the size of the panel if it takes the lead in it or draws level,
// nothing otherwise.
func panelGain(mine, theirs, pm uint64) int {
	if d := bits.OnesCount64(theirs&pm) - bits.OnesCount64(mine&pm); d == 0 || d == 1 {
		return bits.OnesCount64(pm)
	}
	return 0
}

// panelMasks returns the holes of the panel of each hole of l.
func panelMasks(l *engine.Layout) (m [engine.NumHoles]uint64) {
	for h := range m {
		m[h] = uint64(l.PanelHoles(l.PanelOf(engine.Hole(h))))
	}
	return m
}

package bot

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// maxOptions is the most options a Discord select menu takes.
const maxOptions = 25

// colorMark shows a colour in text: red and black discs.
var colorMark = [2]string{engine.Red: "🔴", engine.Black: "⚫"}

// boardMessage is the message that shows game g at position p: the board
// image, whose turn it is with its deadline, the score so far and the
// menus to play; or, at the end, the result. It pings the player to move,
// or both players at the end.
func (b *Bot) boardMessage(g *storage.Game) (message, error) {
	var png bytes.Buffer
	p := g.Position()
	// Renders are bounded by the cores: more at once gain nothing and cost
	// memory. Waiting renders queue in order (a channel's waiting senders
	// are served first come, first served).
	b.renders <- struct{}{}
	defer func() { <-b.renders }()
	outcome, reason := outcome(g, false)
	opt := draw.Options{Names: names(g), Rules: g.Rules(), Over: g.Over(), Outcome: outcome, Reason: reason}
	if err := b.renderer.Render(&png, &p, opt); err != nil {
		return message{}, fmt.Errorf("render the board: %w", err)
	}
	m := message{
		file:       &attachment{name: "board.png", contentType: "image/png", data: png.Bytes(), description: altText(g, &p)},
		content:    boardText(g, &p),
		components: boardComponents(g, &p, false),
	}
	if g.Over() {
		if g.Result().Rated() {
			m.embeds = []*discordgo.MessageEmbed{b.scoreEmbed(g)}
		}
		for _, pl := range g.Players() {
			if !pl.IsAI() {
				m.mentions = append(m.mentions, pl.UserID)
			}
		}
	} else if pl := g.Player(g.ToMove()); !pl.IsAI() {
		m.mentions = []string{pl.UserID}
	}
	return m, nil
}

func names(g *storage.Game) [2]string {
	return [2]string{g.Player(engine.Red).Name, g.Player(engine.Black).Name}
}

// who is how a player appears in a message: a mention for a person (it
// shows their current name), the name for the computer.
func who(p game.Player) string {
	if p.IsAI() {
		return "**" + p.Name + "**"
	}
	return "<@" + p.UserID + ">"
}

// boardText is the text above a board image.
func boardText(g *storage.Game, p *engine.Position) string {
	var b strings.Builder
	red, black := g.Player(engine.Red), g.Player(engine.Black)
	fmt.Fprintf(&b, "**Kulami** · %s %s vs %s %s · %s rules", colorMark[engine.Red], escape(red.Name), colorMark[engine.Black], escape(black.Name), g.Rules())
	if last, _ := p.Last(); last != engine.NoHole {
		mover := g.Player(g.ToMove().Other())
		fmt.Fprintf(&b, "\nMove %d: %s %s played **%s**.", p.Ply(), colorMark[g.ToMove().Other()], escape(mover.Name), p.Layout().Cell(last))
	}
	if g.Over() {
		outcome, reason := outcome(g, true)
		fmt.Fprintf(&b, "\n**Game over.** %s", strings.TrimSpace(outcome+" "+reason))
		return b.String()
	}
	c := g.ToMove()
	fmt.Fprintf(&b, "\n%s %s, your move", colorMark[c], who(g.Player(c)))
	if d := g.Deadline(); !d.IsZero() {
		fmt.Fprintf(&b, " — due <t:%d:R>", d.Unix())
	}
	s := p.Score(g.Rules())
	fmt.Fprintf(&b, ".\nScore so far: %s %s · %s %s", colorMark[engine.Red], scoreWords(s[engine.Red], g.Rules()),
		colorMark[engine.Black], scoreWords(s[engine.Black], g.Rules()))
	if d := g.DrawOffer(); d != nil {
		fmt.Fprintf(&b, "\n%s offers a draw.", escape(g.Player(d.By).Name))
	}
	return b.String()
}

// altText describes the board in words for those who cannot see the image
// (screen readers read an attachment's description): the players, the last
// two moves, whose turn it is and where they may play, or how the game
// ended, and the score; at most 1024 characters, Discord's limit.
func altText(g *storage.Game, p *engine.Position) string {
	var b strings.Builder
	l := p.Layout()
	name := func(c engine.Color) string { return g.Player(c).Name }
	fmt.Fprintf(&b, "Kulami board, %d by %d holes, %s rules. Red: %s. Black: %s.", l.Width(), l.Height(), g.Rules(), name(engine.Red), name(engine.Black))
	if last, prev := p.Last(); last != engine.NoHole {
		mover := p.ToMove().Other()
		fmt.Fprintf(&b, " Move %d: %s played %s.", p.Ply(), name(mover), l.Cell(last))
		if prev != engine.NoHole {
			fmt.Fprintf(&b, " Before that, %s played %s.", name(mover.Other()), l.Cell(prev))
		}
	}
	s := p.Score(g.Rules())
	if g.Over() {
		result, reason := outcome(g, false)
		fmt.Fprintf(&b, " Game over. %s", strings.TrimSpace(result+" "+reason))
	} else {
		fmt.Fprintf(&b, " %s to move; may play %s.", name(g.ToMove()), legalList(p))
	}
	fmt.Fprintf(&b, " Score: %s %s, %s %s.", name(engine.Red), scoreWords(s[engine.Red], g.Rules()), name(engine.Black), scoreWords(s[engine.Black], g.Rules()))
	return truncate(b.String(), 1024)
}

// scoreWords writes a player's score so far: the total, and under the
// rule sets with bonuses what it is made of ("7 (5 panels + 2 area)").
func scoreWords(s engine.Breakdown, rules engine.Rules) string {
	if !rules.CountsArea() && !rules.CountsLines() {
		return fmt.Sprint(s.Total)
	}
	parts := []string{count(s.Panels, "panel", "panels")}
	if rules.CountsArea() {
		parts = append(parts, fmt.Sprintf("%d area", s.Area))
	}
	if rules.CountsLines() {
		parts = append(parts, fmt.Sprintf("%d lines", s.Lines))
	}
	return fmt.Sprintf("%d (%s)", s.Total, strings.Join(parts, " + "))
}

// count writes n with the noun's singular or plural: "1 panel", "2 panels".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// outcome says how a finished game ended, with mentions or plain names:
// the result, and for a game played out on the board why it ended there
// (for the other endings the result says it).
func outcome(g *storage.Game, mention bool) (result, reason string) {
	r := g.Result()
	if r == nil {
		return "", ""
	}
	name := func(c engine.Color) string {
		if mention {
			return who(g.Player(c))
		}
		return g.Player(c).Name
	}
	w, l := r.Winner, r.Winner.Other()
	score := fmt.Sprintf("%d–%d", r.Score[w].Total, r.Score[l].Total)
	switch {
	case r.Ending == game.Aborted:
		return "The game was called off; it counts for nobody.", ""
	case r.Ending == game.Unstarted:
		return fmt.Sprintf("%s did not make a first move in time, so the game is aborted; it counts for nobody.", name(l)), ""
	case r.Ending == game.Abandoned:
		return "The game's channel is gone, so the game is abandoned; it counts for nobody.", ""
	case r.Ending == game.DrawAgreed:
		return "Drawn by agreement.", ""
	case r.Ending == game.Resigned:
		return fmt.Sprintf("%s resigned — %s wins.", name(l), name(w)), ""
	case r.Ending == game.TimedOut:
		return fmt.Sprintf("%s ran out of time — %s wins.", name(l), name(w)), ""
	case r.Draw:
		return fmt.Sprintf("It's a draw, %d–%d.", r.Score[engine.Red].Total, r.Score[engine.Black].Total), endReason(g, name)
	}
	return fmt.Sprintf("%s wins %s against %s!", name(w), score, name(l)), endReason(g, name)
}

// endReason says why a game played out on the board ended (RULES.md): the
// player to move had no legal hole, or every marble was placed.
func endReason(g *storage.Game, name func(engine.Color) string) string {
	if g.Blocked() {
		return fmt.Sprintf("%s has no legal hole after move %d.", name(g.ToMove()), g.Ply())
	}
	return fmt.Sprintf("All %d marbles are placed.", engine.MaxPly)
}

// scoreEmbed is the score breakdown of a finished, rated game, with the
// players' new ratings.
func (b *Bot) scoreEmbed(g *storage.Game) *discordgo.MessageEmbed {
	e := &discordgo.MessageEmbed{Title: "Final score", Color: embedColor}
	r := g.Result()
	if f, err := b.store.FinishedGame(g.GuildID, g.ID); err == nil {
		e.Footer = &discordgo.MessageEmbedFooter{Text: ratingLine(g, f.Ratings)}
	} else {
		b.log.Warn("cannot read the ratings of a finished game", "game", g.ID, "err", err)
	}
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		s := r.Score[c]
		v := fmt.Sprintf("Panels %d", s.Panels)
		if g.Rules().CountsArea() {
			v += fmt.Sprintf("\nArea +%d", s.Area)
		}
		if g.Rules().CountsLines() {
			v += fmt.Sprintf("\nLines +%d", s.Lines)
		}
		v += fmt.Sprintf("\n**Total %d**", s.Total)
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: colorMark[c] + " " + truncate(g.Player(c).Name, 200), Value: v, Inline: true})
	}
	return e
}

// boardComponents are the menus of the legal holes and (from the second
// board on) the Resign button of a board, disabled once the board is out
// of date; at the end, the buttons of gameOverComponents.
func boardComponents(g *storage.Game, p *engine.Position, disabled bool) []discordgo.MessageComponent {
	if g.Over() {
		return gameOverComponents(g)
	}
	l := p.Layout()
	holes := slices.Collect(p.Legal().All())
	slices.SortFunc(holes, func(a, b engine.Hole) int { return int(l.Cell(a)) - int(l.Cell(b)) }) // by row, then column
	var rows []discordgo.MessageComponent
	chunks := (len(holes) + maxOptions - 1) / maxOptions
	for k := 0; k < chunks; k++ {
		part := holes[k*len(holes)/chunks : (k+1)*len(holes)/chunks]
		opts := make([]discordgo.SelectMenuOption, len(part))
		for j, h := range part {
			c := l.Cell(h).String()
			opts[j] = discordgo.SelectMenuOption{Label: c, Value: c, Description: moveHint(p, h)}
		}
		placeholder := fmt.Sprintf("Place a marble: %s", count(len(part), "hole", "holes"))
		if chunks > 1 {
			first, last := l.Cell(part[0]), l.Cell(part[len(part)-1])
			placeholder = fmt.Sprintf("Place a marble: rows %d–%d", first.Row()+1, last.Row()+1)
			if first.Row() == last.Row() {
				placeholder = fmt.Sprintf("Place a marble: row %d", first.Row()+1)
			}
			if k > 0 && l.Cell(holes[k*len(holes)/chunks-1]).Row() == first.Row() {
				placeholder += fmt.Sprintf(", from %s", first) // the row began in the menu before
			}
		}
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
			CustomID:    customID{action: actMove, channel: g.ChannelID, id: g.ID, n: g.Ply(), part: k}.String(),
			Placeholder: placeholder,
			Options:     opts,
			Disabled:    disabled,
			MaxValues:   1,
		}}})
	}
	if g.Ply() == 0 {
		// The first board's menus take three rows already, and nobody
		// resigns before a marble is placed (/kulami abort calls the game
		// off, /kulami resign is still there): one row less to scroll.
		return rows
	}
	rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{
		Label:    "Resign",
		Style:    discordgo.DangerButton,
		CustomID: customID{action: actResign, channel: g.ChannelID, id: g.ID, n: g.Ply()}.String(),
		Disabled: disabled,
	}}})
	return rows
}

// moveHint says what placing the next marble at h in p does at once, for
// the player to move (at most 100 characters, Discord's limit for an
// option's description): the panel it contests, who would lead there, and
// how many holes it leaves the opponent.
func moveHint(p *engine.Position, h engine.Hole) string {
	l := p.Layout()
	me := p.ToMove()
	next := *p
	next.Apply(h)
	panel := l.PanelHoles(l.PanelOf(h))
	mine, theirs := (next.Stones(me) & panel).Len(), (next.Stones(me.Other()) & panel).Len()
	lead := "tied"
	switch {
	case mine > theirs:
		lead = "you lead"
	case theirs > mine:
		lead = "they lead"
	}
	s := fmt.Sprintf("Panel of %d: you %d, them %d (%s)", panel.Len(), mine, theirs, lead)
	switch n := next.Legal().Len(); {
	case next.IsOver():
		return s + " · ends the game"
	default:
		return s + " · leaves them " + count(n, "hole", "holes")
	}
}

// escape keeps Discord markdown in a name from formatting the message.
func escape(s string) string {
	return markdown.Replace(truncate(s, 64))
}

// markdown escapes what Discord would read as formatting in a name:
// emphasis, code, spoilers, quotes, masked links ([x](url)), headings and
// subtext (# and -# at a line's start), mentions of channels (<#id>), and
// @ (no ping, even where mentions are allowed).
var markdown = strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "~", `\~`, "`", "\\`", "|", `\|`, ">", `\>`,
	"<", `\<`, "[", `\[`, "]", `\]`, "#", `\#`, "@", "@\u200b")

// truncate cuts s to at most n runes, with an ellipsis if it was longer.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

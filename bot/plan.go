package bot

import (
	"context"

	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// planner handles conditional moves: /kulami plan and the Plan replies
// button of a board open, for the player not to move, a planner only they
// see, whose menus add a line to their plan one move at a time (their
// opponent's move, then their reply, up to game.MaxPlanDepth replies
// deep); each line is stored as soon as it ends with a reply. It is safe
// for concurrent use.
type planner struct {
	clock Clock
	table *table
}

// open shows the planner of the player who asks, from a fresh line:
// /kulami plan, the board's Plan replies button and the planner's own
// New line button (which replaces the planner with a fresh one).
func (pn *planner) open(c *interaction, g *storage.Game) error {
	by, err := planOwner(c, g)
	if err != nil {
		return err
	}
	m := plannerMessage(c.lang(), g, by, nil)
	if c.i.Message != nil && c.i.Message.Flags&discordgo.MessageFlagsEphemeral != 0 {
		return c.update(m)
	}
	return c.reply(m)
}

// planOwner returns the colour of the player who asks to plan in g, or
// the refusal of the game's rules: a spectator, a player on their own
// turn, a game that is over.
func planOwner(c *interaction, g *storage.Game) (engine.Color, error) {
	by, err := g.Seat(c.user().ID)
	switch {
	case err != nil:
	case g.Over():
		err = engine.ErrGameOver
	case by == g.ToMove():
		err = game.ErrOwnTurn
	}
	if err != nil {
		return 0, &gameError{err: err, g: g, user: c.user().ID}
	}
	return by, nil
}

// pick is a move picked from the planner's menu: the value names the whole
// line so far. A line that ends with a reply is stored (added to the
// plan, replacing a line it extends); the planner then offers the next
// move.
func (pn *planner) pick(c *interaction, g *storage.Game, id customID) error {
	values := c.i.MessageComponentData().Values
	if len(values) != 1 {
		return refuse("move.pick_one")
	}
	if id.n != g.Ply() {
		return refuse("plan.stale")
	}
	by, err := planOwner(c, g)
	if err != nil {
		return err
	}
	var path game.Line
	for f := range strings.FieldsSeq(values[0]) {
		cell, err := engine.ParseCell(f)
		if err != nil {
			return &gameError{err: &game.PlanError{Line: 1, Move: len(path) + 1, Err: err}, g: g, user: c.user().ID}
		}
		path = append(path, cell)
	}
	if len(path)%2 == 1 { // the opponent's move: the reply is picked next
		p := g.Position()
		for i, cell := range path {
			if err := p.Play(cell); err != nil {
				return &gameError{err: &game.PlanError{Line: 1, Move: i + 1, Err: err}, g: g, user: c.user().ID}
			}
		}
		if len(path) > 2*game.MaxPlanDepth {
			return &gameError{err: game.ErrPlanTooDeep, g: g, user: c.user().ID}
		}
		return c.update(plannerMessage(c.lang(), g, by, path))
	}
	now := pn.clock.Now()
	g, _, err = pn.table.update(c.ctx, g.ChannelID, g.ID, asker{user: c.user().ID}, seated(c.user().ID, func(g *storage.Game, by engine.Color) error {
		if g.Ply() != id.n {
			return game.ErrStale
		}
		return g.SetPlan(by, withLine(g.Plan(by), path), now)
	}))
	if err != nil {
		return err
	}
	return c.update(plannerMessage(c.lang(), g, by, path))
}

// clear drops the plan of the player who asks.
func (pn *planner) clear(c *interaction, g *storage.Game) error {
	if _, err := planOwner(c, g); err != nil {
		return err
	}
	now := pn.clock.Now()
	g, _, err := pn.table.update(c.ctx, g.ChannelID, g.ID, asker{user: c.user().ID}, seated(c.user().ID, func(g *storage.Game, by engine.Color) error {
		return g.SetPlan(by, nil, now)
	}))
	if err != nil {
		return err
	}
	by, _ := g.Seat(c.user().ID)
	return c.update(plannerMessage(c.lang(), g, by, nil))
}

// withLine returns the lines of a plan with line added: a line it extends
// is replaced by it; a line it is the start of already holds it.
func withLine(lines []game.Line, line game.Line) []game.Line {
	out := make([]game.Line, 0, len(lines)+1)
	for _, l := range lines {
		switch {
		case len(l) >= len(line) && slices.Equal(l[:len(line)], line):
			return lines
		case len(l) < len(line) && slices.Equal(line[:len(l)], l):
			continue
		}
		out = append(out, l)
	}
	return append(out, line)
}

// plannerMessage is the planner of the player of colour by in g, in lang,
// with path the line being built (nil for a new one): the plan as it
// stands, a menu of the next move of the line (the opponent's moves, or
// the replies to the last of them), and the buttons New line and Clear
// plan. Only its owner sees it.
func plannerMessage(lang i18n.Lang, g *storage.Game, by engine.Color, path game.Line) message {
	opp := escape(playerName(lang, g.Player(by.Other())))
	lines := []string{lang.T("plan.title", "Game", g.ID, "Opponent", opp)}
	plan := g.Plan(by)
	if len(plan) == 0 {
		lines = append(lines, lang.T("plan.empty"))
	}
	for i, l := range plan {
		lines = append(lines, lang.T("plan.line", "N", i+1, "Moves", lineWords(lang, l)))
	}
	p := g.Position()
	for _, c := range path {
		if p.Play(c) != nil {
			break // a line the game moved past: the menu below is empty
		}
	}
	mine := len(path)%2 == 1
	switch {
	case len(path) == 0:
		lines = append(lines, lang.T("plan.pick_theirs", "Opponent", opp))
	case mine:
		lines = append(lines, lang.T("plan.pick_reply", "Moves", lineWords(lang, path)))
	default:
		lines = append(lines, lang.N("plan.saved", len(plan), "Opponent", opp, "Max", game.MaxPlanLines))
	}
	var rows []discordgo.MessageComponent
	if len(path) < 2*game.MaxPlanDepth && !p.IsOver() {
		prefix := ""
		for _, c := range path {
			prefix += c.String() + " "
		}
		placeholder := lang.T("plan.menu_theirs", "Opponent", opp)
		if mine {
			placeholder = lang.T("plan.menu_reply")
		}
		// The holes in menus of at most maxOptions each: three at most
		// (the 64 holes of a first move), one row left for the buttons.
		cells := p.Legal().Cells(p.Layout())
		for k := 0; k*maxOptions < len(cells); k++ {
			var opts []discordgo.SelectMenuOption
			for _, c := range cells[k*maxOptions : min(len(cells), (k+1)*maxOptions)] {
				opts = append(opts, discordgo.SelectMenuOption{Label: c.String(), Value: prefix + c.String()})
			}
			rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
				CustomID: customID{action: actPlanPick, channel: g.ChannelID, id: g.ID, n: g.Ply(), part: k}.String(), Placeholder: placeholder,
				Options: opts, MaxValues: 1,
			}}})
		}
	}
	buttons := []discordgo.MessageComponent{discordgo.Button{Label: lang.T("plan.button_new"), Style: discordgo.SecondaryButton,
		CustomID: customID{action: actPlan, channel: g.ChannelID, id: g.ID, n: g.Ply()}.String(), Disabled: len(path) == 0}}
	if len(plan) > 0 {
		buttons = append(buttons, discordgo.Button{Label: lang.T("plan.button_clear"), Style: discordgo.DangerButton,
			CustomID: customID{action: actPlanClear, channel: g.ChannelID, id: g.ID, n: g.Ply()}.String()})
	}
	rows = append(rows, discordgo.ActionsRow{Components: buttons})
	return message{content: strings.Join(lines, "\n"), components: rows, ephemeral: true}
}

// lineWords writes a line of a plan in lang: "if E5 → F6, then if G2 → H3".
func lineWords(lang i18n.Lang, l game.Line) string {
	var parts []string
	for i := 0; i < len(l); i += 2 {
		if i+1 < len(l) {
			parts = append(parts, lang.T("plan.step", "Theirs", l[i], "Mine", l[i+1]))
		} else {
			parts = append(parts, lang.T("plan.step_open", "Theirs", l[i]))
		}
	}
	return strings.Join(parts, lang.T("plan.then"))
}

// droppedPlans tells the owners of plan lines a move dropped (their reply
// was no longer legal), by direct message.
func (t *table) droppedPlans(ctx context.Context, g *storage.Game, notes []game.PlanNote) {
	for _, n := range notes {
		p := g.Player(n.By)
		if p.IsAI() {
			continue
		}
		t.notices.dm(ctx, g.Game, p.UserID, func(lang i18n.Lang) message {
			return message{content: lang.T("plan.dropped", "Game", g.ID, "Moves", lineWords(lang, n.Line), "Board", boardLink(lang, g))}
		})
	}
}

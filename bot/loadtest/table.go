package loadtest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/discordtest"
)

// The kinds of interaction the players send, in the order the report
// lists them.
const (
	kindChallenge    = "/kulami challenge"
	kindAccept       = "Accept button"
	kindMenu         = "move menu"
	kindAutocomplete = "move autocomplete"
	kindTyped        = "/kulami move"
)

var kinds = []string{kindChallenge, kindAccept, kindMenu, kindAutocomplete, kindTyped}

// kindOrder is the place of a kind in the report.
func kindOrder(kind string) int {
	if i := slices.Index(kinds, kind); i >= 0 {
		return i
	}
	return len(kinds)
}

// boardWait is how long a player waits for the new board of a move before
// giving up on the game.
const boardWait = 2 * time.Minute

// playedGame is a game as its players saw it.
type playedGame struct {
	id      uint64
	cells   []string // the moves whose new boards came back, in order
	pending string   // a move sent whose new board never came, or ""
	over    bool
}

// table is one channel where two players play game after game, until the
// run's deadline. Its methods run on the table's own goroutine.
type table struct {
	run     *runner
	channel string
	users   [2]*discordgo.User
	layout  string
	rng     *rand.Rand
	games   []*playedGame
}

// play plays games until the deadline or a failure.
func (t *table) play() {
	t.think()
	for time.Now().Before(t.run.deadline) && t.playGame() {
	}
}

// think waits as long as a player thinks: a random time around the
// configured think time.
func (t *table) think() {
	if d := t.run.cfg.Think; d > 0 {
		time.Sleep(d/2 + rand.N(d))
	}
}

// playGame challenges, accepts and plays one game to its end. It reports
// whether the table may go on.
func (t *table) playGame() bool {
	g, board, ok := t.begin()
	if !ok {
		return false
	}
	for !isOver(board) {
		if !time.Now().Before(t.run.deadline) {
			return false
		}
		t.think()
		if board, ok = t.move(g, board); !ok {
			return false
		}
	}
	g.over = true
	return true
}

// begin challenges and accepts a game, and returns it with its first
// board.
func (t *table) begin() (*playedGame, *discordtest.Message, bool) {
	from, to := t.users[len(t.games)%2], t.users[1-len(t.games)%2]
	dc := t.run.dc
	i := dc.Command(t.channel, from, "kulami", discordtest.Subcommand("challenge",
		discordtest.UserOption("opponent", to.ID), discordtest.StringOption("layout", t.layout)))
	d := i.Data.(discordgo.ApplicationCommandInteractionData)
	d.Resolved = &discordgo.ApplicationCommandInteractionDataResolved{Users: map[string]*discordgo.User{to.ID: to}}
	i.Data = d
	r, _, ok := t.send(kindChallenge, i)
	if !ok {
		return nil, nil, false
	}
	// The challenge is a message of the bot in the channel (so that it
	// notifies the challenged player); the command's answer confirms it,
	// or only defers, when the bot was slow: then the message may come
	// after the answer.
	msg := t.challengeAfter(i)
	deferred := r.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource
	for wait := time.Now().Add(boardWait); msg == nil && deferred && time.Now().Before(wait); msg = t.challengeAfter(i) {
		time.Sleep(20 * time.Millisecond)
	}
	accept := ""
	if msg != nil {
		accept = buttonWithPrefix(msg.Components, "kulami:accept:")
	}
	if accept == "" {
		t.run.rec.fail(fmt.Sprintf("%s: no challenge with an Accept button came: %q", kindChallenge, r.Content))
		return nil, nil, false
	}
	t.think()
	board, ok := t.sendForBoard(kindAccept, dc.Button(msg.ID, to, accept), 0)
	if !ok {
		return nil, nil, false
	}
	g := &playedGame{id: gameID(board)}
	t.games = append(t.games, g)
	return g, board, true
}

// move plays a random legal hole of board for the player it pings, by its
// menu or now and then by /kulami move, and returns the new board.
func (t *table) move(g *playedGame, board *discordtest.Message) (*discordtest.Message, bool) {
	player := t.toMove(board)
	menus := moveMenus(board.Components)
	if player == nil || len(menus) == 0 {
		t.run.rec.fail(fmt.Sprintf("a board without a player to move or menus: %q", board.Content))
		return nil, false
	}
	var holes []string
	var menuOf []string
	for _, m := range menus {
		for _, o := range m.Options {
			holes = append(holes, o.Value)
			menuOf = append(menuOf, m.CustomID)
		}
	}
	k := t.rng.IntN(len(holes))
	cell, ply := holes[k], boardPly(board)+1
	var next *discordtest.Message
	ok := false
	if t.rng.Float64() < t.run.cfg.Typed {
		next, ok = t.typeMove(player, cell, ply)
	} else {
		next, ok = t.sendForBoard(kindMenu, t.run.dc.Select(board.ID, player, menuOf[k], cell), ply)
	}
	if !ok {
		g.pending = cell
		return nil, false
	}
	g.cells = append(g.cells, cell)
	return next, true
}

// typeMove plays cell as a player who types /kulami move: autocomplete
// first, as Discord asks while they type, then the command. It waits for
// the new board at ply.
func (t *table) typeMove(player *discordgo.User, cell string, ply int) (*discordtest.Message, bool) {
	dc := t.run.dc
	ac := dc.Autocomplete(t.channel, player, "kulami", discordtest.Subcommand("move",
		discordtest.Focused(discordtest.StringOption("cell", cell[:1]))))
	r, _, ok := t.send(kindAutocomplete, ac)
	if !ok {
		return nil, false
	}
	if !slices.ContainsFunc(r.Choices, func(c *discordgo.ApplicationCommandOptionChoice) bool { return c.Value == cell }) &&
		len(r.Choices) < 25 {
		t.run.rec.fail(fmt.Sprintf("%s: %s is not among the suggestions for %q", kindAutocomplete, cell, cell[:1]))
		return nil, false
	}
	return t.sendForBoard(kindTyped, dc.Command(t.channel, player, "kulami", discordtest.Subcommand("move",
		discordtest.StringOption("cell", cell))), ply)
}

// send posts i to the bot and notes how soon it answered. It fails the
// interaction if the bot answers an error or a refusal.
func (t *table) send(kind string, i *discordgo.Interaction) (*discordtest.Response, time.Time, bool) {
	dc := t.run.dc
	start := time.Now()
	resp, err := dc.PostInteraction(t.run.url(), i)
	took := time.Since(start)
	if err != nil {
		t.run.rec.fail(fmt.Sprintf("%s: %v", kind, err))
		return nil, start, false
	}
	_ = resp.Body.Close()
	if resp.StatusCode != 200 {
		t.run.rec.fail(fmt.Sprintf("%s: HTTP %d", kind, resp.StatusCode))
		return nil, start, false
	}
	t.run.rec.answer(kind, start, took)
	r, ok := dc.Response(i.ID)
	switch {
	case !ok:
		t.run.rec.fail(fmt.Sprintf("%s: the fake recorded no answer", kind))
		return nil, start, false
	case r.Ephemeral() && !isConfirmation(r.Content):
		t.run.rec.fail(fmt.Sprintf("%s: refused: %q", kind, r.Content))
		return nil, start, false
	}
	return r, start, true
}

// confirmations start the answers the bot gives only to the player who
// acted, to confirm it: everything else only they see is a refusal.
var confirmations = []string{"Challenge sent to ", "You played **"}

// isConfirmation reports whether an answer only its user sees confirms
// what they did.
func isConfirmation(content string) bool {
	return slices.ContainsFunc(confirmations, func(p string) bool { return strings.HasPrefix(content, p) })
}

// challengeAfter returns the challenge message the bot posted in the
// table's channel after the command i (the fake's IDs grow in creation
// order), or nil.
func (t *table) challengeAfter(i *discordgo.Interaction) *discordtest.Message {
	after, _ := strconv.ParseUint(i.ID, 10, 64)
	for _, m := range t.run.dc.Messages(t.channel) {
		if id, _ := strconv.ParseUint(m.ID, 10, 64); id > after && buttonWithPrefix(m.Components, "kulami:accept:") != "" {
			return m
		}
	}
	return nil
}

// sendForBoard sends i, which starts a game or plays a move, and waits
// for its new board, at ply, noting when it reached Discord.
func (t *table) sendForBoard(kind string, i *discordgo.Interaction, ply int) (*discordtest.Message, bool) {
	w, stop := t.run.proxy.watch(i.Token, t.channel)
	defer stop()
	_, start, ok := t.send(kind, i)
	if !ok {
		return nil, false
	}
	wait := time.NewTimer(boardWait)
	defer wait.Stop()
	for {
		board, at, refusal := t.newBoard(w, i, ply)
		switch {
		case refusal != "":
			t.run.rec.fail(fmt.Sprintf("%s: refused: %q", kind, refusal))
			return nil, false
		case board != nil:
			t.run.rec.board(kind, at.Sub(start))
			return board, true
		}
		select {
		case <-w.signal:
		case <-t.run.botDone:
			t.run.rec.fail(fmt.Sprintf("%s: the bot exited before the new board came", kind))
			return nil, false
		case <-wait.C:
			t.run.rec.fail(fmt.Sprintf("%s: no new board within %v", kind, boardWait))
			return nil, false
		}
	}
}

// newBoard finds, among the messages the bot wrote for i, the board at
// ply that answers it, with when it reached Discord; or a refusal the
// bot sent instead.
func (t *table) newBoard(w *watch, i *discordgo.Interaction, ply int) (*discordtest.Message, time.Time, string) {
	ids, written := w.messages()
	for _, id := range ids {
		m, ok := t.run.dc.Message(id)
		switch {
		case !ok || (i.Message != nil && id == i.Message.ID):
			// the clicked board itself, retired
		case m.Ephemeral() && m.Content != "" && !isConfirmation(m.Content):
			return nil, time.Time{}, m.Content
		case len(m.Files) > 0 && (boardPly(m) == ply || isOver(m)):
			return m, written[id], ""
		}
	}
	return nil, time.Time{}, ""
}

// toMove is the player a board pings to move.
func (t *table) toMove(board *discordtest.Message) *discordgo.User {
	for _, u := range t.users {
		if strings.Contains(board.Content, "<@"+u.ID+">, your move") {
			return u
		}
	}
	return nil
}

// isOver reports whether a board shows the end of its game.
func isOver(board *discordtest.Message) bool {
	return strings.Contains(board.Content, "**Game over.**")
}

// moveMenus are the hole menus among components.
func moveMenus(components []discordgo.MessageComponent) []*discordgo.SelectMenu {
	var out []*discordgo.SelectMenu
	for _, c := range components {
		row, ok := c.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, c := range row.Components {
			if m, ok := c.(*discordgo.SelectMenu); ok && strings.HasPrefix(m.CustomID, "kulami:move:") {
				out = append(out, m)
			}
		}
	}
	return out
}

// buttonWithPrefix is the custom ID of the first button among components
// whose custom ID starts with prefix, or "".
func buttonWithPrefix(components []discordgo.MessageComponent, prefix string) string {
	for _, c := range components {
		row, ok := c.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, c := range row.Components {
			if b, ok := c.(*discordgo.Button); ok && strings.HasPrefix(b.CustomID, prefix) {
				return b.CustomID
			}
		}
	}
	return ""
}

// gameID is the ID of the game a board shows, from the custom ID of its
// menus; 0 if it has none.
func gameID(board *discordtest.Message) uint64 {
	id, _ := menuID(board)
	return id
}

// boardPly is the ply a board shows, from the custom ID of its menus; -1
// if it has none.
func boardPly(board *discordtest.Message) int {
	_, ply := menuID(board)
	return ply
}

// menuID reads the game ID and ply from the custom ID of a board's first
// enabled hole menu (kulami:move:<channel>:<game>:<ply>[:<part>]); 0 and
// -1 if it has none.
func menuID(board *discordtest.Message) (uint64, int) {
	for _, m := range moveMenus(board.Components) {
		parts := strings.Split(m.CustomID, ":")
		if m.Disabled || len(parts) < 5 {
			continue
		}
		id, err1 := strconv.ParseUint(parts[3], 10, 64)
		ply, err2 := strconv.Atoi(parts[4])
		if err1 == nil && err2 == nil {
			return id, ply
		}
	}
	return 0, -1
}

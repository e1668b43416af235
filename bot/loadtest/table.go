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
	kindReview       = "/kulami review (storm)"
	kindGIF          = "Replay (GIF) (storm)"
)

var kinds = []string{kindChallenge, kindAccept, kindMenu, kindAutocomplete, kindTyped, kindReview, kindGIF}

// kindOrder is the place of a kind in the report.
func kindOrder(kind string) int {
	if i := slices.Index(kinds, kind); i >= 0 {
		return i
	}
	return len(kinds)
}

// boardWait is how long a player waits for the new board of a move before
// giving up on the game, unless Config.Wait says otherwise: longer than
// the bot takes to post a board Discord failed (a minute after).
const boardWait = 2 * time.Minute

// playedGame is a game as its players saw it.
type playedGame struct {
	id    uint64
	cells []string // the moves whose new boards came back, in order
	// pending are the holes tried for the next move, whose new board
	// never came: the database may hold one of them.
	pending []string
	over    bool
}

// table is one channel where two players play game after game, until the
// run's players stop. Its methods run on the table's own goroutine.
type table struct {
	run     *runner
	channel string
	users   [2]*discordgo.User
	layout  string
	rng     *rand.Rand
	games   []*playedGame
}

// play plays games until the players stop or a failure.
func (t *table) play() {
	if t.run.cfg.Fault.Kind == faultBurst {
		time.Sleep(time.Duration(t.rng.Int64N(int64(burstWithin))))
	} else {
		t.think()
	}
	for t.run.playing.Err() == nil && t.playGame() {
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
		if t.run.playing.Err() != nil {
			return false
		}
		t.think()
		if board, ok = t.move(g, board); !ok {
			return false
		}
	}
	g.over = true
	t.run.finished(t.channel, g.id, board)
	return true
}

// retryAfter is how long a player waits after an answer that failed
// before they look at the channel and try again (under a fault only:
// without one, a failure stops the table and is a problem of the run).
const retryAfter = time.Second

// beginTries is how many times a table tries to start a game under a
// fault before it gives up.
const beginTries = 5

// begin challenges and accepts a game, and returns it with its first
// board. Under a fault, it tries again after a failure, from what the
// channel shows: the new game's board, an open challenge, or nothing.
func (t *table) begin() (*playedGame, *discordtest.Message, bool) {
	for try := 1; ; try++ {
		board := t.beginOnce()
		if board == nil && t.run.cfg.Fault.on() && try < beginTries {
			time.Sleep(retryAfter)
			if board = t.newGameBoard(); board == nil {
				continue
			}
		}
		if board == nil {
			return nil, nil, false
		}
		g := &playedGame{id: gameID(board)}
		t.games = append(t.games, g)
		return g, board, true
	}
}

// beginOnce challenges and accepts a game (or accepts the open challenge,
// under a fault) and returns its first board.
func (t *table) beginOnce() *discordtest.Message {
	from, to := t.users[len(t.games)%2], t.users[1-len(t.games)%2]
	dc := t.run.dc
	i := dc.Command(t.channel, from, "kulami", discordtest.Subcommand("challenge",
		discordtest.UserOption("opponent", to.ID), discordtest.StringOption("layout", t.layout)))
	d := i.Data.(discordgo.ApplicationCommandInteractionData)
	d.Resolved = &discordgo.ApplicationCommandInteractionDataResolved{Users: map[string]*discordgo.User{to.ID: to}}
	i.Data = d
	a := t.send(kindChallenge, i)
	// The challenge is a message of the bot in the channel (so that it
	// notifies the challenged player); the command's answer confirms it,
	// or only defers, when the bot was slow: then the message may come
	// after the answer.
	msg := t.challengeAfter(i.ID)
	switch {
	case a.fail != "" && t.run.cfg.Fault.on():
		// Perhaps refused as busy for a challenge that a failed answer
		// hid: the channel shows it.
		msg = t.challengeAfter("0")
	case a.fail != "":
		return nil
	}
	deferred := a.resp != nil && a.resp.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource
	for wait := time.Now().Add(t.run.cfg.wait()); msg == nil && deferred && time.Now().Before(wait); msg = t.challengeAfter(i.ID) {
		if o, ok := dc.Original(i.ID); ok && o.Content != "" && !isConfirmation(o.Content) {
			a.fail = o.Content // the deferred answer says it failed
			t.refused(a.fail, a.start)
			t.run.rec.fail(fmt.Sprintf("%s: refused: %q", kindChallenge, a.fail))
			if t.run.cfg.Fault.on() {
				msg = t.challengeAfter("0")
			}
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	accept := ""
	if msg != nil {
		accept = buttonWithPrefix(msg.Components, "kulami:accept:")
	}
	if accept == "" {
		if a.fail == "" {
			t.run.rec.fail(fmt.Sprintf("%s: no challenge with an Accept button came: %q", kindChallenge, a.resp.Content))
		}
		return nil
	}
	t.think()
	a = t.sendForBoard(kindAccept, dc.Button(msg.ID, to, accept), 0)
	if a.board != nil {
		t.run.rec.board(kindAccept, t.channel, a.start, a.at)
	}
	return a.board
}

// move plays a random legal hole of board for the player it pings, by its
// menu or now and then by /kulami move, and returns the new board. Under a
// fault, a player told that the move failed waits, looks at the channel
// and, unless it shows the move after all, tries another hole (so that
// the database tells which try it stored); a try refused because the
// game moved on waits for the board. Every try answered as a failure is
// noted, for the report to count those the database holds.
func (t *table) move(g *playedGame, board *discordtest.Message) (*discordtest.Message, bool) {
	ply, start := boardPly(board)+1, time.Now()
	g.pending = nil
	for {
		a, cell, ok := t.tryMove(board, ply, g.pending)
		if !ok {
			return nil, false
		}
		if cell != "" {
			g.pending = append(g.pending, cell)
		}
		if cell != "" && (a.late || (a.fail != "" && !a.unanswered)) {
			t.run.rec.failedMove(failedMove{channel: t.channel, game: g.id, ply: ply, cell: cell, why: a.why()})
		}
		if a.board == nil && a.ahead {
			a.board, a.at = t.waitBoard(g.id, ply, time.Now().Add(t.run.cfg.wait()))
			if a.board == nil {
				t.run.rec.fail(fmt.Sprintf("%s: refused as the game moved on (%q), but no new board came within %v", a.kind, a.fail, t.run.cfg.wait()))
				return nil, false
			}
		}
		if a.board == nil && t.run.cfg.Fault.on() && time.Since(start) < t.run.cfg.wait() {
			time.Sleep(retryAfter)
			if latest := t.latestBoard(g.id); latest != nil && (isOver(latest) || boardPly(latest) >= ply) {
				a.board, a.at = latest, time.Now()
			} else if latest != nil {
				board = latest
			}
		}
		if a.board != nil {
			g.cells = append(g.cells, playedCell(a.board, cell))
			g.pending = nil
			t.run.moves.Add(1)
			t.run.rec.board(a.kind, t.channel, start, a.at)
			return a.board, true
		}
		if !t.run.cfg.Fault.on() || time.Since(start) >= t.run.cfg.wait() {
			return nil, false
		}
	}
}

// tryMove sends one try of the move at ply: a random hole of board's
// menus, clicked or typed, one not tried yet if there is one. It returns
// how it went and the hole, or "" if the move was not sent (its
// autocomplete failed); false if the board has no menus or no player to
// move.
func (t *table) tryMove(board *discordtest.Message, ply int, tried []string) (attempt, string, bool) {
	player := t.toMove(board)
	menus := moveMenus(board.Components)
	if player == nil || len(menus) == 0 {
		t.run.rec.fail(fmt.Sprintf("a board without a player to move or menus: %q", board.Content))
		return attempt{}, "", false
	}
	var holes, menuOf, fresh []string
	for _, m := range menus {
		for _, o := range m.Options {
			holes = append(holes, o.Value)
			menuOf = append(menuOf, m.CustomID)
			if !slices.Contains(tried, o.Value) {
				fresh = append(fresh, o.Value)
			}
		}
	}
	k := t.rng.IntN(len(holes))
	if len(fresh) > 0 {
		k = slices.Index(holes, fresh[t.rng.IntN(len(fresh))])
	}
	cell := holes[k]
	if t.rng.Float64() < t.run.cfg.Typed {
		a, sent := t.typeMove(player, cell, ply)
		if !sent {
			cell = ""
		}
		return a, cell, true
	}
	return t.sendForBoard(kindMenu, t.run.dc.Select(board.ID, player, menuOf[k], cell), ply), cell, true
}

// typeMove plays cell as a player who types /kulami move: autocomplete
// first, as Discord asks while they type, then the command. It waits for
// the new board at ply. It reports whether the command was sent.
func (t *table) typeMove(player *discordgo.User, cell string, ply int) (attempt, bool) {
	dc := t.run.dc
	ac := dc.Autocomplete(t.channel, player, "kulami", discordtest.Subcommand("move",
		discordtest.Focused(discordtest.StringOption("cell", cell[:1]))))
	a := t.send(kindAutocomplete, ac)
	if a.fail != "" {
		return a, false
	}
	if !slices.ContainsFunc(a.resp.Choices, func(c *discordgo.ApplicationCommandOptionChoice) bool { return c.Value == cell }) &&
		len(a.resp.Choices) < 25 {
		a.fail = fmt.Sprintf("%s is not among the suggestions for %q", cell, cell[:1])
		t.run.rec.fail(fmt.Sprintf("%s: %s", kindAutocomplete, a.fail))
		return a, false
	}
	return t.sendForBoard(kindTyped, dc.Command(t.channel, player, "kulami", discordtest.Subcommand("move",
		discordtest.StringOption("cell", cell))), ply), true
}

// attempt is how an interaction went, as its player saw it.
type attempt struct {
	kind  string
	resp  *discordtest.Response // the bot's first answer, if it came
	start time.Time             // when it was sent
	late  bool                  // answered after Discord's 3 seconds: Discord showed it failed
	fail  string                // a refusal or failure the player was shown, or ""
	ahead bool                  // refused because the game had moved on
	// unanswered: the failure is that nothing came (no new board in time),
	// not an answer that said so.
	unanswered bool
	board      *discordtest.Message // the new board, if it came
	at         time.Time            // when the new board reached Discord
}

// why says why a try of a move counts as answered as a failure.
func (a attempt) why() string {
	if a.fail != "" {
		return a.fail
	}
	return "answered after 3 s"
}

// send posts i to the bot and notes how soon it answered. An error or a
// refusal it answers is a failure of the interaction.
func (t *table) send(kind string, i *discordgo.Interaction) attempt {
	dc := t.run.dc
	a := attempt{kind: kind, start: time.Now()}
	resp, err := dc.PostInteraction(t.run.url(), i)
	took := time.Since(a.start)
	switch {
	case err != nil:
		a.fail = err.Error()
	case resp.StatusCode != 200:
		_ = resp.Body.Close()
		a.fail = fmt.Sprintf("HTTP %d", resp.StatusCode)
	}
	if a.fail != "" {
		t.run.rec.fail(fmt.Sprintf("%s: %s", kind, a.fail))
		return a
	}
	_ = resp.Body.Close()
	t.run.rec.answer(kind, a.start, took)
	a.late = took > ackLimit && kind != kindAutocomplete
	r, ok := dc.Response(i.ID)
	switch {
	case !ok:
		a.fail = "the fake recorded no answer"
	case r.Ephemeral() && !isConfirmation(r.Content):
		a.fail, a.ahead = r.Content, isAhead(r.Content)
		t.refused(a.fail, a.start)
	}
	if a.fail != "" {
		t.run.rec.fail(fmt.Sprintf("%s: refused: %q", kind, a.fail))
	}
	a.resp = r
	return a
}

// busyText starts the bot's answer "busy": the database could not serve
// the interaction in time.
const busyText = "This game is being updated"

// refused notes a refusal the bot answered to an interaction of the
// table sent at start: the report counts those that say "busy" while the
// run's fault did not lock the table's game (pglock).
func (t *table) refused(content string, start time.Time) {
	if !strings.HasPrefix(content, busyText) {
		return
	}
	locked := t.run.cfg.Fault.Kind == faultPGLock && t.run.faults.hits(t.channel, start, time.Now())
	t.run.rec.busy(locked)
}

// confirmations start the answers the bot gives only to the player who
// acted, to confirm it: everything else only they see is a refusal. A
// change stored whose board Discord failed to show is confirmed too.
var confirmations = []string{"Challenge sent to ", "You played **", "Done: that is stored"}

// isConfirmation reports whether an answer only its user sees confirms
// what they did.
func isConfirmation(content string) bool {
	return slices.ContainsFunc(confirmations, func(p string) bool { return strings.HasPrefix(content, p) })
}

// isAhead reports whether a refusal of a move says that the game has
// moved on: the board clicked is out of date, or it is the other player's
// turn.
func isAhead(content string) bool {
	return strings.HasPrefix(content, "This board is out of date") || strings.Contains(content, "turn, not yours")
}

// challengeAfter returns the newest challenge message with an Accept
// button the bot posted in the table's channel after the interaction
// with ID after (the fake's IDs grow in creation order), or nil.
func (t *table) challengeAfter(after string) *discordtest.Message {
	min, _ := strconv.ParseUint(after, 10, 64)
	msgs := t.run.dc.Messages(t.channel)
	for k := len(msgs) - 1; k >= 0; k-- {
		m := msgs[k]
		if id, _ := strconv.ParseUint(m.ID, 10, 64); id > min && buttonWithPrefix(m.Components, "kulami:accept:") != "" {
			return m
		}
	}
	return nil
}

// newGameBoard returns the first board of a game the table has not
// played yet, if the channel shows one: a game whose start was answered
// as a failure.
func (t *table) newGameBoard() *discordtest.Message {
	msgs := t.run.dc.Messages(t.channel)
	for k := len(msgs) - 1; k >= 0; k-- {
		m := msgs[k]
		id := gameID(m)
		if id != 0 && !slices.ContainsFunc(t.games, func(g *playedGame) bool { return g.id == id }) {
			return m
		}
	}
	return nil
}

// latestBoard returns the newest board of game id in the table's channel
// that still has its menus or shows the game's end, or nil.
func (t *table) latestBoard(id uint64) *discordtest.Message {
	msgs := t.run.dc.Messages(t.channel)
	for k := len(msgs) - 1; k >= 0; k-- {
		m := msgs[k]
		if len(m.Files) > 0 && m.Files[0].Name == "board.png" && componentsGame(m.Components) == id &&
			(isOver(m) || boardPly(m) >= 0) {
			return m
		}
	}
	return nil
}

// waitBoard waits until the channel shows the board of game id at ply or
// later (or its end), and returns it with when it was seen; nil if it did
// not come by until, or the bots exited.
func (t *table) waitBoard(id uint64, ply int, until time.Time) (*discordtest.Message, time.Time) {
	for time.Now().Before(until) {
		if b := t.latestBoard(id); b != nil && (isOver(b) || boardPly(b) >= ply) {
			return b, time.Now()
		}
		select {
		case <-t.run.botDone:
			return nil, time.Time{}
		case <-time.After(100 * time.Millisecond):
		}
	}
	return nil, time.Time{}
}

// playedCell is the hole of the last move a board shows, or cell if its
// text does not say.
func playedCell(board *discordtest.Message, cell string) string {
	if sub := lastMove.FindStringSubmatch(board.Content); sub != nil {
		return sub[2]
	}
	return cell
}

// sendForBoard sends i, which starts a game or plays a move, and waits
// for its new board, at ply, noting when it reached Discord.
func (t *table) sendForBoard(kind string, i *discordgo.Interaction, ply int) attempt {
	w, stop := t.run.proxy.watch(i.Token, t.channel)
	defer stop()
	a := t.send(kind, i)
	if a.fail != "" {
		return a
	}
	wait := time.NewTimer(t.run.cfg.wait())
	defer wait.Stop()
	for {
		board, at, refusal := t.newBoard(w, i, ply)
		switch {
		case refusal != "":
			a.fail, a.ahead = refusal, isAhead(refusal)
			t.refused(refusal, a.start)
			t.run.rec.fail(fmt.Sprintf("%s: refused: %q", kind, refusal))
			return a
		case board != nil:
			a.board, a.at = board, at
			return a
		}
		select {
		case <-w.signal:
		case <-t.run.botDone:
			a.fail, a.unanswered = "the bot exited before the new board came", true
		case <-wait.C:
			a.fail, a.unanswered = fmt.Sprintf("no new board within %v", t.run.cfg.wait()), true
		}
		if a.fail != "" {
			t.run.rec.fail(fmt.Sprintf("%s: %s", kind, a.fail))
			return a
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

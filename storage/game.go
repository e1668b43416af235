package storage

import (
	"fmt"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/rating"
)

// Game is the active game of one channel: a game.Game and where it is
// played. The store fills in ID. Every Game the store returns is the
// caller's own copy, not safe for concurrent use.
//
// BoardMessageID and ClickedBoards are the one exception to a Game
// holding only the game and its place: they are Discord's, the bot's
// bookkeeping of its board messages, kept in the game's stored form
// because they must commit with the game (see doc.go, "Board messages").
type Game struct {
	ID              uint64 // unique, set by CreateGame
	GuildID         string // "" in direct messages
	ChannelID       string // the channel (or thread) the game is played in
	ParentChannelID string // the channel a thread was opened from, else ""
	// ServerID is the server a game outside the guilds that added the
	// bot (GuildID "") is played in, or "" in a DM or group DM: what a
	// link to its board names, with ChannelID and BoardMessageID.
	ServerID string
	// BoardMessageID is the message that shows the current board, if
	// known (see NoteBoard). Discord state, stored with the game: the
	// update that moves the game past its board clears it in the same
	// commit, so that no process links or retires a board out of date.
	BoardMessageID string
	// ClickedBoards are the last board messages whose menus made a move
	// before the board was noted, newest last (the bot keeps a few): the
	// answer to each click retired its board. The process whose note of
	// such a board came too late (NoteBoard), perhaps another one, learns
	// here that it need not retire it again. Discord state, stored with
	// the game: a click's mark must commit with the move it made.
	ClickedBoards []string
	// BoardDue, if not zero, is when the board of the game's current ply
	// is owed, should no board of that ply be noted by then: the change
	// that makes a ply sets it in its own commit (so that a process that
	// dies before the board is posted leaves it owed), and one that
	// Discord failed to post sets it again. The game is due to the
	// scheduler then (see Wake), which posts the board. Discord state,
	// stored with the game. A board noted (BoardMessageID, NoteBoard)
	// pays the debt: BoardDue counts only while BoardMessageID is empty.
	BoardDue time.Time
	// BoardEdit, if not zero, is when the board message (BoardMessageID)
	// is due for an edit that makes it show the game as it then is: the
	// change that makes the board say something else without a move (a
	// vacation begun or ended, time given) sets it in its own commit, and
	// the bot sets it to when the board's words next change by themselves
	// (a weekend pause that begins or ends, game.Game.PauseChange). The
	// game is due to the scheduler then (NotedWake). Discord state,
	// stored with the game.
	BoardEdit time.Time
	// Tournament, if not nil, is the tournament game this game is: its
	// end records its result in the tournament, in the same transaction.
	Tournament *TournamentGame
	// GivenBack, if not nil, is the last outage given back to the game
	// (see Resuming), and the reminder that says so while it is owed.
	GivenBack *GivenBack
	*game.Game
}

// GivenBack is the time a resume after an outage gave back to a game: it
// marks the game as having had that resume's outage (so that neither the
// resume's batches nor a due wake give it twice), and holds the reminder
// that says so as due work of the game's own, stored in the commit that
// gave the time back, so that a stop loses none and sends none twice.
type GivenBack struct {
	At   time.Time     `json:"at"`   // when the bot came back: the Resuming's At
	Down time.Duration `json:"down"` // the time given back
	// Remind is when the reminder of the time given back is due to the
	// scheduler (see Game.Wake); zero once it is sent (or given up). A
	// resume spaces them (Resuming.PerSecond).
	Remind time.Time `json:"remind,omitzero"`
}

// outageRemind returns when the reminder of the time given back is due,
// zero if none is owed: once sent, once the game is over, and once the
// turn it was given in has passed (it was the player's then to be told).
func (g *Game) outageRemind() time.Time {
	if gb := g.GivenBack; gb != nil && !g.Over() && turnBegan(g).Before(gb.At) {
		return gb.Remind
	}
	return time.Time{}
}

// OutageReminder returns how long the bot was down if the reminder of the
// time given back is due at now, else false.
func (g *Game) OutageReminder(now time.Time) (time.Duration, bool) {
	if at := g.outageRemind(); !at.IsZero() && !at.After(now) {
		return g.GivenBack.Down, true
	}
	return 0, false
}

// Reminded marks the reminder of the time given back as sent.
func (g *Game) Reminded() {
	if g.GivenBack != nil {
		g.GivenBack.Remind = time.Time{}
	}
}

// Wake returns when the game is next due to the scheduler: NotedWake, or
// BoardDue if the board is owed earlier (and none is noted). Its record is
// indexed under it.
func (g *Game) Wake() time.Time {
	w := g.NotedWake()
	if g.BoardDue.IsZero() || g.BoardMessageID != "" || g.Over() || (!w.IsZero() && w.Before(g.BoardDue)) {
		return w
	}
	return g.BoardDue
}

// NotedWake returns when the game is due to the scheduler once its board
// is noted: game.Game's wake, or, if earlier, the reminder of the time
// given back (GivenBack, see OutageReminder) or the board's edit
// (BoardEdit).
func (g *Game) NotedWake() time.Time {
	w := g.Game.Wake()
	for _, at := range [...]time.Time{g.outageRemind(), g.boardEdit()} {
		if !at.IsZero() && (w.IsZero() || at.Before(w)) {
			w = at
		}
	}
	return w
}

// boardEdit returns when the board is due for an edit (BoardEdit); zero
// once the game is over, whose final board says how it ended.
func (g *Game) boardEdit() time.Time {
	if g.Over() {
		return time.Time{}
	}
	return g.BoardEdit
}

// gameRecord is how a Game is stored: the game's State with its place, and
// the wake time it was indexed under.
type gameRecord struct {
	ID              uint64 `json:"id"`
	GuildID         string `json:"guild,omitempty"`
	ChannelID       string `json:"channel"`
	ParentChannelID string `json:"parent,omitempty"`
	ServerID        string `json:"server,omitempty"`
	game.State
	BoardMessageID string          `json:"board_message,omitempty"`
	ClickedBoards  []string        `json:"clicked_boards,omitempty"`
	BoardDue       time.Time       `json:"board_due,omitzero"`
	BoardEdit      time.Time       `json:"board_edit,omitzero"`
	WakeAt         time.Time       `json:"wake_at,omitzero"`
	Tournament     *TournamentGame `json:"tournament,omitempty"`
	GivenBack      *GivenBack      `json:"given_back,omitempty"`
}

// Noted sets messageID as the board of g, which pays the board owed, if
// any (BoardDue): what a backend does when it reads a game whose board
// was noted (NoteBoard).
func (g *Game) Noted(messageID string) {
	g.BoardMessageID, g.BoardDue = messageID, time.Time{}
}

// record returns the stored form of g.
func (g *Game) record() *gameRecord {
	r := &gameRecord{
		ID: g.ID, GuildID: g.GuildID, ChannelID: g.ChannelID, ParentChannelID: g.ParentChannelID, ServerID: g.ServerID,
		State: g.State(), BoardMessageID: g.BoardMessageID, ClickedBoards: g.ClickedBoards, BoardDue: g.BoardDue, BoardEdit: g.boardEdit(), WakeAt: g.Wake(), Tournament: g.Tournament,
	}
	if r.BoardMessageID != "" {
		r.BoardDue = time.Time{} // paid
	}
	if g.GivenBack != nil {
		gb := *g.GivenBack // the record is not changed with g
		r.GivenBack = &gb
	}
	return r
}

// game returns the Game that r stores; the game's own checks (game.Restore)
// run on it, so a stored value that is not a valid game is ErrCorrupt.
func (r *gameRecord) game() (*Game, error) {
	gg, err := game.Restore(r.State)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w: %w", r.ID, ErrCorrupt, err)
	}
	return &Game{ID: r.ID, GuildID: r.GuildID, ChannelID: r.ChannelID, ParentChannelID: r.ParentChannelID, ServerID: r.ServerID,
		BoardMessageID: r.BoardMessageID, ClickedBoards: r.ClickedBoards, BoardDue: r.BoardDue, BoardEdit: r.BoardEdit, Tournament: r.Tournament, GivenBack: r.GivenBack, Game: gg}, nil
}

// Ladder returns the ladder the game counts on (rating.LadderOf): AI if
// the computer plays, else Human.
func (g *Game) Ladder() Ladder { return rating.LadderOf(g.Players()) }

// check returns an error wrapping ErrInvalid if g may not be stored: no
// game, a bad place, or a player whose profile ID would be taken for the
// computer's.
func (g *Game) check() error {
	if g.Game == nil {
		return fmt.Errorf("%w: no game", ErrInvalid)
	}
	if err := checkGuildID(g.GuildID); err != nil {
		return err
	}
	if err := checkID("channel ID", g.ChannelID); err != nil {
		return err
	}
	if g.ParentChannelID != "" {
		if err := checkID("parent channel ID", g.ParentChannelID); err != nil {
			return err
		}
	}
	if g.ServerID != "" {
		if err := checkID("server ID", g.ServerID); err != nil {
			return err
		}
	}
	for c, p := range g.Players() {
		if err := checkPlayer(p, engine.Color(c).String()+" player"); err != nil {
			return err
		}
	}
	return nil
}

// checkUpdate returns an error wrapping ErrInvalid if g, changed by an
// update function, differs from the stored old in a field that may not
// change: the ID, the place, or the game itself (another game put in).
func (g *Game) checkUpdate(old *gameRecord) error {
	s := g.State()
	switch {
	case g.ID != old.ID, g.GuildID != old.GuildID, g.ChannelID != old.ChannelID,
		g.ParentChannelID != old.ParentChannelID, g.ServerID != old.ServerID, s.Layout != old.Layout, s.Rules != old.Rules,
		s.First != old.First, !s.Created.Equal(old.Created):
		return fmt.Errorf("%w: game %d: the ID, place, layout, rules, first colour and creation time may not change", ErrInvalid, old.ID)
	case (g.Tournament == nil) != (old.Tournament == nil), g.Tournament != nil && *g.Tournament != *old.Tournament:
		return fmt.Errorf("%w: game %d: its tournament may not change", ErrInvalid, old.ID)
	case len(s.Moves) < len(old.Moves):
		return fmt.Errorf("%w: game %d: moves may not be taken back", ErrInvalid, old.ID)
	}
	for c := range s.Players {
		if s.Players[c].UserID != old.Players[c].UserID || s.Players[c].AI != old.Players[c].AI {
			return fmt.Errorf("%w: game %d: the players may not change (only their names)", ErrInvalid, old.ID)
		}
	}
	return nil
}

// canonicalLayout returns the canonical form of a layout string, or s
// itself if it does not parse (challenge.Challenge.Check then says why).
func canonicalLayout(s string) string {
	if l, err := engine.ParseLayout(s); err == nil {
		return l.String()
	}
	return s
}

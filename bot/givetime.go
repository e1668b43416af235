package bot

import (
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/storage"
)

// overtime handles what a game played over days offers when time runs
// short: giving the opponent more time (/kulami give_time and the Give
// time button of a board), and claiming the win when their clock ran out
// (/kulami claim, and the Claim the win and Keep waiting buttons of the
// message that says so). It is safe for concurrent use.
type overtime struct {
	clock Clock
	out   *outbound
	langs *locales
	table *table
	giver *giver // gives a game its time down before a claim
}

// giveTime adds time to the clock of the opponent of the player who asks
// (game.Game.GiveTime), tells the opponent with a message that pings
// them, and edits the board so that it shows the new deadline (the board
// is due for its edit in the change's commit, so that the scheduler makes
// it if this one fails: boardedit.go).
func (ov *overtime) giveTime(c *interaction, g *storage.Game) error {
	now := ov.clock.Now()
	user := c.user().ID
	g, _, err := ov.table.update(c.ctx, g.ChannelID, g.ID, asker{user: user}, seated(user, func(g *storage.Game, by engine.Color) error {
		if err := g.GiveTime(by, now); err != nil {
			return err
		}
		g.BoardEdit = now
		return nil
	}))
	if err != nil {
		return err
	}
	opp, giver := g.Player(g.ToMove()), g.Player(g.ToMove().Other())
	lang := ov.table.notices.readerLang(c, opp.UserID) // the words are for the opponent
	left := lang.Duration(g.TimeLeft(g.ToMove(), now))
	text := "⏳ " + lang.T("give.channel", "Player", who(lang, opp), "Giver", escape(playerName(lang, giver)), "Left", left, "Board", boardLink(lang, g))
	if d := g.Deadline(); !d.IsZero() {
		text += " " + lang.T("give.due", "Due", timestamp(d))
	}
	m := message{content: text, mentions: []string{opp.UserID}}
	if answerOnly(g) {
		// The news is the answer, a new message that pings the opponent
		// (but in their quiet hours).
		if err := ov.table.courier.tell(c, ov.table.notices.answer(c, g.Game, m)); err != nil {
			return &storedError{err: err}
		}
	} else if _, err := ov.table.notices.post(c.ctx, g.Game, g.ChannelID, m); err != nil {
		return &storedError{err: err}
	}
	if err := ov.table.editBoard(c.ctx, g, now); err != nil {
		ov.table.log.Warn("cannot edit the board after time given: the scheduler edits it", "channel", g.ChannelID, "err", RedactError(err))
	}
	return c.say(c.lang().T("give.done", "Opponent", escape(playerName(c.lang(), opp)), "Left", c.lang().Duration(g.TimeLeft(g.ToMove(), now))))
}

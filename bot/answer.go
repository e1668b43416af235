package bot

import (
	"errors"
	"fmt"
	"sync"

	"github.com/bwmarrin/discordgo"
)

// answerState is how far the answer to an interaction has gone. It starts
// notAnswered; the handler's first response makes it deferred or
// answered, unless the handler is slow to answer and the bot defers for
// it first (deferredForSlowness). The methods of answer are its only
// transitions.
type answerState uint8

const (
	// notAnswered: Discord has heard nothing of the interaction yet, as
	// far as the bot knows (a deferral for slowness may have reached it
	// although the bot saw it fail: see answer.acknowledge).
	notAnswered answerState = iota
	// deferredForSlowness: the bot deferred for a handler slow to answer;
	// the handler's first response is still to come, and is delivered in
	// the way that fits the deferral (see answer.late).
	deferredForSlowness
	// deferred: the first response is a deferral; the next message fills
	// it in.
	deferred
	// answered: the first response is complete; further messages are
	// follow-ups.
	answered
)

var answerStateNames = [...]string{
	notAnswered:         "not answered",
	deferredForSlowness: "deferred for slowness",
	deferred:            "deferred",
	answered:            "answered",
}

func (s answerState) String() string {
	if int(s) < len(answerStateNames) {
		return answerStateNames[s]
	}
	return fmt.Sprintf("answerState(%d)", s)
}

// awaitsHandler reports whether the handler has not sent its first
// response yet.
func (s answerState) awaitsHandler() bool {
	return s == notAnswered || s == deferredForSlowness
}

// answer is the answer to one interaction. Its methods are the only
// transitions of its state, and each makes its Discord calls under mu, so
// the bot's deferral for a slow handler (on a timer's goroutine) and the
// handler's own messages never cross. An answer moves on whatever Discord
// says to a call: a first response is never sent twice, except after a
// deferral for slowness that failed on the bot's side, which Discord may
// have received all the same (see acknowledge). The zero answer is
// notAnswered; it is safe for concurrent use.
type answer struct {
	mu    sync.Mutex
	state answerState
	// deferralUnsure: a deferral for slowness failed; Discord may show it.
	deferralUnsure bool
}

var errAlreadyResponded = errors.New("interaction already answered")

// responded reports whether the handler has sent its first response.
func (a *answer) responded() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return !a.state.awaitsHandler()
}

// complete reports whether the first response is complete, so that
// further messages are follow-ups.
func (a *answer) complete() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.state == answered
}

// heard reports whether Discord has heard from the bot: a first
// response, or a deferral the bot sent for a slow handler.
func (a *answer) heard() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.state != notAnswered
}

// deferForSlowness defers for the handler of c if Discord has heard
// nothing yet, with the deferral that suits c (see deferType), and
// reports whether it tried. A deferral that fails leaves the answer
// notAnswered, unsure of it: the handler's first response then tells
// whether Discord got it (see acknowledge).
func (a *answer) deferForSlowness(c *interaction) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.state != notAnswered {
		return false, nil
	}
	if _, err := a.acknowledge(c, &discordgo.InteractionResponse{Type: deferType(c.i)}); err != nil {
		a.deferralUnsure = true
		return true, err
	}
	a.state = deferredForSlowness
	return true, nil
}

// acknowledge sends r as the interaction's first response. Discord
// refusing it as acknowledged already (40060) means that an earlier
// callback reached Discord although the bot saw it fail (its client timed
// out, the connection broke after the request went out): the deferral for
// slowness, if one failed, or else r itself, which discordgo sends again
// after an answer 502. Either way the interaction is acknowledged, and
// acknowledge returns no error; it reports whether Discord shows the
// deferral for slowness, which the handler's response must then fit (see
// answer.late).
func (a *answer) acknowledge(c *interaction, r *discordgo.InteractionResponse) (deferralShown bool, err error) {
	err = c.respond(r)
	if restCode(err) != discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged {
		return false, err
	}
	c.log.Info("interaction acknowledged already, by a callback whose answer was lost", "interaction", c.i.ID, "deferral", a.deferralUnsure)
	return a.deferralUnsure, nil
}

// first sends the handler's first response, of type t: as the
// interaction's response, or after the bot deferred for the handler in
// the way that fits the deferral.
func (a *answer) first(c *interaction, t discordgo.InteractionResponseType, m message) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.firstLocked(c, t, m)
}

func (a *answer) firstLocked(c *interaction, t discordgo.InteractionResponseType, m message) error {
	switch a.state {
	case notAnswered:
		if shown, err := a.respondFirst(c, t, m); !shown {
			return err
		}
		fallthrough // Discord shows a deferral for slowness
	case deferredForSlowness:
		return a.late(c, t, m)
	}
	return errAlreadyResponded
}

// respondFirst sends m, of type t, as the interaction's first response,
// and moves the answer on. If Discord shows a deferral for slowness
// instead (see acknowledge), the answer is deferredForSlowness and
// respondFirst reports it: m is still to be delivered.
func (a *answer) respondFirst(c *interaction, t discordgo.InteractionResponseType, m message) (deferralShown bool, err error) {
	a.state = answered
	if t == discordgo.InteractionResponseDeferredChannelMessageWithSource {
		a.state = deferred
	}
	shown, err := a.acknowledge(c, m.firstResponse(t))
	if shown {
		a.state = deferredForSlowness
	}
	return shown, err
}

// late delivers the handler's first response, of type t, after the bot
// deferred for it: a component's deferral promises an update of its
// message, a command's shows a public "thinking…" message.
func (a *answer) late(c *interaction, t discordgo.InteractionResponseType, m message) error {
	a.state = answered
	command := deferType(c.i) == discordgo.InteractionResponseDeferredChannelMessageWithSource
	switch {
	case t == discordgo.InteractionResponseUpdateMessage && !command,
		t == discordgo.InteractionResponseChannelMessageWithSource && command && !m.ephemeral:
		_, err := c.editReply(m)
		return err
	case t == discordgo.InteractionResponseDeferredChannelMessageWithSource:
		// The answer comes later: into the public deferral if it may be
		// public, else as a follow-up of its own.
		switch {
		case !command:
			return nil
		case m.ephemeral:
			return c.deleteReply()
		}
		a.state = deferred
		return nil
	case t == discordgo.InteractionResponseDeferredMessageUpdate:
		return nil
	}
	// A message the deferral does not fit (an ephemeral refusal, say): a
	// follow-up of its own. A command's "thinking…" message goes first, or
	// the follow-up would take its place and be public.
	if command {
		if err := c.deleteReply(); err != nil {
			return err
		}
	}
	_, err := c.followup(m)
	return err
}

// reply answers with a new message: as the first response, by filling in
// a deferred response, or as a follow-up. A message with a file is never
// the first response (see post).
func (a *answer) reply(c *interaction, m message) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.state.awaitsHandler() && m.file == nil {
		return a.firstLocked(c, discordgo.InteractionResponseChannelMessageWithSource, m)
	}
	_, err := a.postLocked(c, m)
	return err
}

// post answers with m and returns the message it became: by filling in a
// deferred response (deferring first if the handler has not answered
// yet), or as a follow-up.
func (a *answer) post(c *interaction, m message) (*discordgo.Message, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.postLocked(c, m)
}

func (a *answer) postLocked(c *interaction, m message) (*discordgo.Message, error) {
	if a.state.awaitsHandler() {
		if err := a.firstLocked(c, discordgo.InteractionResponseDeferredChannelMessageWithSource, message{ephemeral: m.ephemeral}); err != nil {
			return nil, err
		}
	}
	if a.state == deferred {
		a.state = answered
		return c.editReply(m)
	}
	return c.followup(m)
}

// announce answers with m as a new message that notifies whom it
// mentions: the board, challenge or offer of a game the bot cannot post
// in (see courier). It returns the message it became, except for a first
// response without a file (nil: its ID would cost one request more).
// Discord notifies of a new message only, never of an edit: as the first
// response, a message of its own (type 4, then its file by an edit of
// it, since an interaction's HTTP answer takes no file); after a
// deferral, whose "thinking…" message an edit would fill in silently,
// that message is deleted and m follows up; after a first response, a
// follow-up.
func (a *answer) announce(c *interaction, m message) (*discordgo.Message, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.state == notAnswered {
		text := m
		text.file = nil
		shown, err := a.respondFirst(c, discordgo.InteractionResponseChannelMessageWithSource, text)
		switch {
		case err != nil:
			return nil, err
		case shown: // a deferral for slowness: m follows, as below
		case m.file == nil:
			return nil, nil // nobody needs its ID: only boards have files, and their IDs are noted
		default:
			return c.editReply(m)
		}
	}
	switch a.state {
	case deferred, deferredForSlowness:
		thinking := a.state == deferred || deferType(c.i) == discordgo.InteractionResponseDeferredChannelMessageWithSource
		a.state = answered
		if thinking {
			if err := c.deleteReply(); err != nil {
				return nil, err
			}
		}
	}
	return c.followup(m)
}

package bot

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/storage"
)

// courier delivers what a game says where the bot cannot post (answerOnly:
// a DM, a group DM, a server that did not add the bot), instead of the bot's
// own messages in the channel: to a player's interaction, the answer
// itself, a new message that notifies whom it mentions (answer.announce);
// with no interaction to answer (the scheduler's reminders, timeouts and
// claims), the notices (notice.go) send a DM to each player it concerns
// who can receive one, in their language. It
// retires an old board with the token of the interaction whose answer the
// board is, while Discord lets that token edit it (15 minutes); after
// that, or after a restart, the old board keeps its menus, and a click on
// it is answered as any click on an old board. It is safe for concurrent
// use.
type courier struct {
	out   *outbound
	clock Clock
	log   *slog.Logger

	mu     sync.Mutex
	boards map[string]boardToken // by board message ID
}

// boardToken is the interaction whose answer a board is, by which the
// board can be edited, and when it was answered.
type boardToken struct {
	appID, token string
	at           time.Time
}

// editWithin is how long after a board is answered its interaction's
// token is used to edit it: Discord's tokenLife, less a margin for the
// time the answer took.
const editWithin = tokenLife - time.Minute

// board answers c with m, the board of an answer-only game, as a new
// message, and remembers c's token to retire it later. A board carries
// its image, so announce returns its message.
func (co *courier) board(c *interaction, m message) (*discordgo.Message, error) {
	msg, err := c.answer.announce(c, m)
	if err != nil {
		return nil, err
	}
	now := co.clock.Now()
	co.mu.Lock()
	defer co.mu.Unlock()
	for id, b := range co.boards {
		if now.Sub(b.at) >= editWithin {
			delete(co.boards, id)
		}
	}
	co.boards[msg.ID] = boardToken{appID: c.i.AppID, token: c.i.Token, at: now}
	return msg, nil
}

// retire removes the menus of the old board messageID if the token of its
// interaction still edits it; else the board is left as it is.
func (co *courier) retire(ctx context.Context, channelID, messageID string) {
	co.mu.Lock()
	b, ok := co.boards[messageID]
	delete(co.boards, messageID)
	co.mu.Unlock()
	if !ok || co.clock.Now().Sub(b.at) >= editWithin {
		return
	}
	_, err := co.out.session.WebhookMessageEdit(b.appID, b.token, messageID,
		&discordgo.WebhookEdit{Components: &[]discordgo.MessageComponent{}}, discordgo.WithContext(ctx))
	if err != nil {
		co.log.Warn("cannot retire an old board by its interaction", "channel", channelID, "message", messageID, "err", RedactError(err))
	}
}

// edit replaces the board messageID of an answer-only game with m, the
// same board drawn again, through the token of the interaction whose
// answer it is, while Discord lets that token edit it (editWithin). It
// reports whether it could: a board answered longer ago, or before a
// restart, can only be seen as it is by its Refresh button.
func (co *courier) edit(ctx context.Context, channelID, messageID string, m message) bool {
	co.mu.Lock()
	b, ok := co.boards[messageID]
	co.mu.Unlock()
	if !ok || co.clock.Now().Sub(b.at) >= editWithin {
		return false
	}
	e := &discordgo.WebhookEdit{Content: &m.content, Components: &m.components, AllowedMentions: message{}.allowedMentions()}
	if *e.Components == nil {
		e.Components = &[]discordgo.MessageComponent{}
	}
	uri := discordgo.EndpointWebhookMessage(b.appID, b.token, messageID)
	payload := struct {
		*discordgo.WebhookEdit
		Attachments []attachmentRef `json:"attachments"`
	}{e, m.attachmentRefs()}
	if _, err := sendWithFile(ctx, co.out.session, http.MethodPatch, uri, uri, payload, m); err != nil {
		co.log.Warn("cannot edit a board by its interaction", "channel", channelID, "message", messageID, "err", RedactError(err))
		return false
	}
	return true
}

// tell says m about the answer-only game g as the answer to c, a new
// message (what the scheduler says goes by DM: notices.tell).
func (co *courier) tell(c *interaction, m message) error {
	_, err := c.answer.announce(c, m)
	return err
}

// withRefresh adds the Refresh button of an answer-only board to its
// components: a click shows the game as it is now (refresh).
func withRefresh(lang i18n.Lang, g *storage.Game, comps []discordgo.MessageComponent) []discordgo.MessageComponent {
	b := discordgo.Button{Label: lang.T("anywhere.refresh"), Style: discordgo.SecondaryButton,
		CustomID: customID{action: actRefresh, channel: g.ChannelID, id: g.ID, n: g.Ply()}.String()}
	if n := len(comps); n > 0 && g.Ply() > 0 {
		if row, ok := comps[n-1].(discordgo.ActionsRow); ok {
			if _, buttons := row.Components[0].(discordgo.Button); buttons && len(row.Components) < 5 {
				row.Components = append(append([]discordgo.MessageComponent(nil), row.Components...), b)
				return append(comps[:n-1:n-1], row)
			}
		}
	}
	return append(comps, discordgo.ActionsRow{Components: []discordgo.MessageComponent{b}})
}

// refresh answers the Refresh button of an answer-only board (and a click
// on a board of an answer-only game that ended, which the bot could tell
// nobody in the channel): the board clicked, if it is the current one, is
// confirmed privately; a game that moved on shows its current board as a
// new message (pinging the player to move, as any new board); a game
// that ended shows its final board.
func (t *table) refresh(c *interaction, id customID) error {
	g, err := t.store.Game(c.ctx, id.channel)
	switch {
	case err == nil && g.ID == id.id:
		if c.i.Message != nil && c.i.Message.ID == g.BoardMessageID {
			p := g.Position()
			return c.say(c.lang().T("anywhere.up_to_date") + "\n" + boardText(c.lang(), g, &p, t.clock.Now(), t.views.returns(c.ctx, g)))
		}
		return t.show(c.ctx, c, g, g.BoardMessageID)
	case err != nil && !errors.Is(err, storage.ErrNotFound):
		return err
	}
	f, err := t.store.FinishedGame(c.ctx, everywhere, id.id)
	if errors.Is(err, storage.ErrNotFound) || (err == nil && f.ChannelID != c.i.ChannelID) {
		return errGameGone
	} else if err != nil {
		return err
	}
	m, err := t.views.boardMessage(c.ctx, t.langs.publicLang(c), &f.Game)
	if err != nil {
		return err
	}
	m.mentions = nil
	_, err = c.answer.announce(c, m)
	return err
}

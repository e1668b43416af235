package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/storage"
)

// This file holds the bot's REST calls to Discord with its own token:
// messages that are not answers to an interaction.

// send posts m in a channel, as the bot. A thread that archived itself
// during a long move clock is unarchived by the post; one that was also
// locked (Discord refuses the post, 50083) is unarchived explicitly, which
// needs Manage Threads, and the post is tried once more.
func (b *Bot) send(channelID string, m message) (*discordgo.Message, error) {
	msg, err := b.sendOnce(channelID, m)
	if restCode(err) != discordgo.ErrCodePerformedOperationOnArchivedThread {
		return msg, err
	}
	archived := false
	if _, uerr := b.session.ChannelEditComplex(channelID, &discordgo.ChannelEdit{Archived: &archived}, discordgo.WithContext(b.baseCtx)); uerr != nil {
		return nil, fmt.Errorf("%w; unarchiving the thread failed too: %w", err, uerr)
	}
	return b.sendOnce(channelID, m)
}

// routeSendMessage is the route of sendOnce's request, as Discord's API
// reference spells it.
const routeSendMessage = "POST /channels/{channel_id}/messages"

func (b *Bot) sendOnce(channelID string, m message) (_ *discordgo.Message, err error) {
	defer func() { b.logFault(routeSendMessage, channelID, err) }()
	comps := m.components
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	send := &discordgo.MessageSend{
		Content:         m.content,
		Embeds:          m.embeds,
		Components:      comps,
		AllowedMentions: m.allowedMentions(),
	}
	if m.file == nil {
		return b.session.ChannelMessageSendComplex(channelID, send, discordgo.WithContext(b.baseCtx))
	}
	// discordgo cannot give a file a description (the image's alt text),
	// so the multipart request is built here, as discordgo builds it, with
	// the attachments Discord reads the description from.
	payload := struct {
		*discordgo.MessageSend
		Attachments []attachmentRef `json:"attachments"`
	}{send, []attachmentRef{{ID: "0", Filename: m.file.name, Description: m.file.description}}}
	contentType, body, err := discordgo.MultipartBodyWithJSON(payload, m.files())
	if err != nil {
		return nil, err
	}
	uri := discordgo.EndpointChannelMessages(channelID)
	resp, err := b.session.RequestRaw(http.MethodPost, uri, contentType, body, uri, 0, discordgo.WithContext(b.baseCtx))
	if err != nil {
		return nil, err
	}
	var msg discordgo.Message
	if err := json.Unmarshal(resp, &msg); err != nil {
		return nil, fmt.Errorf("read the message sent: %w", err)
	}
	return &msg, nil
}

// logFault logs err if it is Discord's fault rather than a refusal: an
// answer 5xx, or none in time. The user is told only that Discord is slow
// or that something went wrong; the line names the route, so that the
// operator sees what of Discord failed.
func (b *Bot) logFault(route, channelID string, err error) {
	if what, ok := discordFault(err); ok {
		b.log.Warn("Discord failed a request", "route", route, "channel", channelID, "status", what, "err", RedactError(err))
	}
}

// discordFault reports whether err is Discord's fault, and what: the
// status of an answer 5xx, or "timeout".
func discordFault(err error) (string, bool) {
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Response != nil {
		if rest.Response.StatusCode >= http.StatusInternalServerError {
			return rest.Response.Status, true
		}
		return "", false
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return "timeout", true
	}
	return "", false
}

// attachmentRef names a file of a multipart message, files[ID], with its
// description.
type attachmentRef struct {
	ID          string `json:"id"`
	Filename    string `json:"filename"`
	Description string `json:"description,omitempty"`
}

// restCode returns the code of Discord's JSON error in err, or 0.
func restCode(err error) int {
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Message != nil {
		return rest.Message.Code
	}
	return 0
}

// abandonIfGone ends the game g as abandoned, unrated, when err says that
// its channel is gone (deleted under a running game), and tells both
// players by DM; it returns nil then. Any other err is returned as it is.
func (b *Bot) abandonIfGone(ctx context.Context, g *storage.Game, err error) error {
	if restCode(err) != discordgo.ErrCodeUnknownChannel {
		return err
	}
	now := b.clock.Now()
	_, _, uerr := b.update(ctx, g.ChannelID, g.ID, "", "", func(g *storage.Game) error { return g.Abandon(now) })
	if errors.Is(uerr, errGameGone) || errors.Is(uerr, engine.ErrGameOver) {
		return nil // ended meanwhile
	} else if uerr != nil {
		return uerr
	}
	b.log.Info("game abandoned: its channel is gone", "channel", g.ChannelID, "game", g.ID)
	players := g.Players()
	for c, p := range players {
		if p.IsAI() {
			continue
		}
		lang := b.userLang(ctx, p.UserID)
		b.dm(p.UserID, lang.T("remind.abandoned", "Opponent", escape(playerName(lang, players[engine.Color(c).Other()])), "Game", g.ID))
	}
	return nil
}

// retire removes the menus of an old board message, once: a board retired
// already (by another path, or by the click that moved the game past it)
// is not edited again. A board that cannot be edited (deleted, say) is
// left alone: its clicks are refused anyway.
func (b *Bot) retire(channelID, messageID string) {
	if !b.retired.first(messageID, time.Now()) {
		return
	}
	_, err := b.session.ChannelMessageEditComplex(&discordgo.MessageEdit{
		ID: messageID, Channel: channelID, Components: &[]discordgo.MessageComponent{},
	}, discordgo.WithContext(b.baseCtx))
	if err != nil {
		b.log.Warn("cannot retire an old board", "channel", channelID, "message", messageID, "err", err)
	}
}

// dm sends a direct message; a user who accepts none is logged, not an
// error.
func (b *Bot) dm(userID, text string) {
	ch, err := b.session.UserChannelCreate(userID, discordgo.WithContext(b.baseCtx))
	if err == nil {
		_, err = b.send(ch.ID, message{content: text})
	}
	if err != nil {
		b.log.Info("cannot send a direct message", "user", userID, "err", err)
	}
}

// editChallenge replaces the text of a challenge's message and removes its
// buttons.
func (b *Bot) editChallenge(ch *storage.Challenge, text string) {
	if ch.MessageID == "" {
		return
	}
	_, err := b.session.ChannelMessageEditComplex(&discordgo.MessageEdit{
		ID: ch.MessageID, Channel: ch.ChannelID, Content: &text, Components: &[]discordgo.MessageComponent{},
		AllowedMentions: message{}.allowedMentions(),
	}, discordgo.WithContext(b.baseCtx))
	if err != nil {
		b.log.Warn("cannot edit the challenge message", "channel", ch.ChannelID, "message", ch.MessageID, "err", err)
	}
}

package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/storage"
)

// outbound makes the bot's REST calls to Discord with its own token:
// messages that are not answers to an interaction. It is safe for
// concurrent use.
type outbound struct {
	session *discordgo.Session
	log     *slog.Logger
	baseCtx context.Context // the bot's: cancelled by Close
	retired recent          // the boards whose menus were taken off lately: none is edited twice
}

// send posts m in a channel, as the bot. A thread that archived itself
// during a long move clock is unarchived by the post; one that was also
// locked (Discord refuses the post, 50083) is unarchived explicitly, which
// needs Manage Threads, and the post is tried once more.
func (out *outbound) send(channelID string, m message) (*discordgo.Message, error) {
	msg, err := out.sendOnce(channelID, m)
	if restCode(err) != discordgo.ErrCodePerformedOperationOnArchivedThread {
		return msg, err
	}
	archived := false
	if _, uerr := out.session.ChannelEditComplex(channelID, &discordgo.ChannelEdit{Archived: &archived}, discordgo.WithContext(out.baseCtx)); uerr != nil {
		return nil, fmt.Errorf("%w; unarchiving the thread failed too: %w", err, uerr)
	}
	return out.sendOnce(channelID, m)
}

// routeSendMessage is the route of sendOnce's request, as Discord's API
// reference spells it.
const routeSendMessage = "POST /channels/{channel_id}/messages"

func (out *outbound) sendOnce(channelID string, m message) (_ *discordgo.Message, err error) {
	defer func() { logFault(out.log, routeSendMessage, channelID, err) }()
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
		return out.session.ChannelMessageSendComplex(channelID, send, discordgo.WithContext(out.baseCtx))
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
	resp, err := out.session.RequestRaw(http.MethodPost, uri, contentType, body, uri, 0, discordgo.WithContext(out.baseCtx))
	if err != nil {
		return nil, err
	}
	var msg discordgo.Message
	if err := json.Unmarshal(resp, &msg); err != nil {
		return nil, fmt.Errorf("read the message sent: %w", err)
	}
	return &msg, nil
}

// logFault logs to log err of a request to route for channelID if it is
// Discord's fault rather than a refusal: an answer 5xx, or none in time.
// The user is told only that Discord is slow or that something went wrong
// (or, after a change, that it is stored); the line names the route, so
// that the operator sees what of Discord failed.
func logFault(log *slog.Logger, route, channelID string, err error) {
	if what, ok := discordFault(err); ok {
		log.Warn("Discord failed a request", "route", route, "channel", channelID, "status", what, "err", RedactError(err))
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

// retire removes the menus of an old board message, once: a board retired
// already (by another path, or by the click that moved the game past it)
// is not edited again. A board that cannot be edited (deleted, say) is
// left alone: its clicks are refused anyway.
func (out *outbound) retire(channelID, messageID string) {
	if !out.retired.first(messageID, time.Now()) {
		return
	}
	_, err := out.session.ChannelMessageEditComplex(&discordgo.MessageEdit{
		ID: messageID, Channel: channelID, Components: &[]discordgo.MessageComponent{},
	}, discordgo.WithContext(out.baseCtx))
	if err != nil {
		out.log.Warn("cannot retire an old board", "channel", channelID, "message", messageID, "err", err)
	}
}

// recentBoards is how many of a channel's last messages findBoard reads.
const recentBoards = 10

// findBoard returns the ID of a message among the last of channelID that
// shows the board of game gameID at ply (its menus name them), or "" if
// there is none: a post that timed out may have been made all the same.
func (out *outbound) findBoard(channelID string, gameID uint64, ply int) (string, error) {
	ms, err := out.session.ChannelMessages(channelID, recentBoards, "", "", "", discordgo.WithContext(out.baseCtx))
	if err != nil {
		return "", fmt.Errorf("read the last messages: %w", err)
	}
	for _, m := range ms {
		for _, row := range m.Components {
			r, ok := row.(*discordgo.ActionsRow)
			if !ok {
				continue
			}
			for _, c := range r.Components {
				menu, ok := c.(*discordgo.SelectMenu)
				if !ok {
					continue
				}
				if id, err := parseCustomID(menu.CustomID); err == nil && id.action == actMove && id.id == gameID && id.n == ply {
					return m.ID, nil
				}
			}
		}
	}
	return "", nil
}

// dm sends a direct message; a user who accepts none is logged, not an
// error.
func (out *outbound) dm(userID, text string) {
	ch, err := out.session.UserChannelCreate(userID, discordgo.WithContext(out.baseCtx))
	if err == nil {
		_, err = out.send(ch.ID, message{content: text})
	}
	if err != nil {
		out.log.Info("cannot send a direct message", "user", userID, "err", err)
	}
}

// editChallenge replaces the text of a challenge's message and removes its
// buttons.
func (out *outbound) editChallenge(ch *storage.Challenge, text string) {
	if ch.MessageID == "" {
		return
	}
	_, err := out.session.ChannelMessageEditComplex(&discordgo.MessageEdit{
		ID: ch.MessageID, Channel: ch.ChannelID, Content: &text, Components: &[]discordgo.MessageComponent{},
		AllowedMentions: message{}.allowedMentions(),
	}, discordgo.WithContext(out.baseCtx))
	if err != nil {
		out.log.Warn("cannot edit the challenge message", "channel", ch.ChannelID, "message", ch.MessageID, "err", err)
	}
}

// editText replaces the text of a message of the bot, keeping its files
// and components, and pings nobody; a message that cannot be edited keeps
// its text (logged).
func (out *outbound) editText(channelID, messageID, content string) {
	_, err := out.session.ChannelMessageEditComplex(&discordgo.MessageEdit{
		ID: messageID, Channel: channelID, Content: &content, AllowedMentions: message{}.allowedMentions(),
	}, discordgo.WithContext(out.baseCtx))
	if err != nil {
		out.log.Warn("cannot edit a message's text", "channel", channelID, "message", messageID, "err", err)
	}
}

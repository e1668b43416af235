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
// messages that are not answers to an interaction. Each call runs in the
// context of the work that makes it (an interaction's, a due item's of
// the scheduler, a job's), so a call that hangs ends with that work's
// deadline and holds nothing else; each is also bounded by the session's
// HTTP client timeout. It is safe for concurrent use.
type outbound struct {
	session *discordgo.Session
	log     *slog.Logger
	retired recent // the boards whose menus were taken off lately: none is edited twice
}

// send posts m in a channel, as the bot. A thread that archived itself
// during a long move clock is unarchived by the post; one that was also
// locked (Discord refuses the post, 50083) is unarchived explicitly, which
// needs Manage Threads, and the post is tried once more.
func (out *outbound) send(ctx context.Context, channelID string, m message) (*discordgo.Message, error) {
	msg, err := out.sendOnce(ctx, channelID, m)
	if restCode(err) != discordgo.ErrCodePerformedOperationOnArchivedThread {
		return msg, err
	}
	archived := false
	if _, uerr := out.session.ChannelEditComplex(channelID, &discordgo.ChannelEdit{Archived: &archived}, discordgo.WithContext(ctx)); uerr != nil {
		return nil, fmt.Errorf("%w; unarchiving the thread failed too: %w", err, uerr)
	}
	return out.sendOnce(ctx, channelID, m)
}

// routeSendMessage is the route of sendOnce's request, as Discord's API
// reference spells it.
const routeSendMessage = "POST /channels/{channel_id}/messages"

func (out *outbound) sendOnce(ctx context.Context, channelID string, m message) (_ *discordgo.Message, err error) {
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
		Flags:           m.flags(),
	}
	if m.file == nil {
		return out.session.ChannelMessageSendComplex(channelID, send, discordgo.WithContext(ctx), discordgo.WithRestRetries(0))
	}
	payload := struct {
		*discordgo.MessageSend
		Attachments []attachmentRef `json:"attachments"`
	}{send, m.attachmentRefs()}
	uri := discordgo.EndpointChannelMessages(channelID)
	return sendWithFile(ctx, out.session, http.MethodPost, uri, uri, payload, m)
}

// sendWithFile sends payload, which lists m's file in its "attachments"
// with its description, and m's file as a multipart request to uri, in
// rate-limit bucket bucket, and returns the message it made. discordgo
// cannot give a file a description (the image's alt text), so the request
// is built here, as discordgo builds it. A 502 is not sent again blindly,
// as discordgo would (a proxy's 502 may hide a message Discord made): the
// caller looks before it tries again (sendBoard).
func sendWithFile(ctx context.Context, s *discordgo.Session, method, uri, bucket string, payload any, m message) (*discordgo.Message, error) {
	contentType, body, err := discordgo.MultipartBodyWithJSON(payload, m.files())
	if err != nil {
		return nil, err
	}
	resp, err := s.RequestRaw(method, uri, contentType, body, bucket, 0, discordgo.WithContext(ctx), discordgo.WithRestRetries(0))
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

// attachmentRefs lists m's file, files[0] of a multipart request, with
// its description.
func (m message) attachmentRefs() []attachmentRef {
	return []attachmentRef{{ID: "0", Filename: m.file.name, Description: m.file.description}}
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
func (out *outbound) retire(ctx context.Context, channelID, messageID string) {
	if !out.retired.first(messageID, time.Now()) {
		return
	}
	_, err := out.session.ChannelMessageEditComplex(&discordgo.MessageEdit{
		ID: messageID, Channel: channelID, Components: &[]discordgo.MessageComponent{},
	}, discordgo.WithContext(ctx))
	if err != nil {
		out.log.Warn("cannot retire an old board", "channel", channelID, "message", messageID, "err", err)
	}
}

// recentBoards is how many of a channel's last messages findBoard reads.
const recentBoards = 10

// findBoard returns the ID of a message among the last of channelID that
// shows the board of game gameID at ply (its menus name them), or its
// final board if final (its Rematch button names the game), or "" if
// there is none: a post that timed out may have been made all the same.
func (out *outbound) findBoard(ctx context.Context, channelID string, gameID uint64, ply int, final bool) (string, error) {
	ms, err := out.session.ChannelMessages(channelID, recentBoards, "", "", "", discordgo.WithContext(ctx))
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
				var custom string
				switch c := c.(type) {
				case *discordgo.SelectMenu:
					custom = c.CustomID
				case *discordgo.Button:
					custom = c.CustomID
				}
				id, err := parseCustomID(custom)
				if err == nil && id.id == gameID && (final && id.action == actRematch || !final && id.action == actMove && id.n == ply) {
					return m.ID, nil
				}
			}
		}
	}
	return "", nil
}

// dm sends a direct message; a user who accepts none is logged, not an
// error.
func (out *outbound) dm(ctx context.Context, userID, text string) {
	if err := out.dmMessage(ctx, userID, message{content: text}); err != nil {
		out.log.Info("cannot send a direct message", "user", userID, "err", err)
	}
}

// dmMessage sends m to a user in a direct message. Discord refuses it
// (50007) to a user who shares no server with the bot and did not
// install the app, or who accepts no DMs.
func (out *outbound) dmMessage(ctx context.Context, userID string, m message) error {
	ch, err := out.session.UserChannelCreate(userID, discordgo.WithContext(ctx))
	if err != nil {
		return err
	}
	_, err = out.send(ctx, ch.ID, m)
	return err
}

// editChallenge replaces the text of a challenge's message and removes its
// buttons.
func (out *outbound) editChallenge(ctx context.Context, ch *storage.Challenge, text string) {
	if ch.MessageID == "" {
		return
	}
	_, err := out.session.ChannelMessageEditComplex(&discordgo.MessageEdit{
		ID: ch.MessageID, Channel: ch.ChannelID, Content: &text, Components: &[]discordgo.MessageComponent{},
		AllowedMentions: message{}.allowedMentions(),
	}, discordgo.WithContext(ctx))
	if err != nil {
		out.log.Warn("cannot edit the challenge message", "channel", ch.ChannelID, "message", ch.MessageID, "err", err)
	}
}

// routeEditMessage is the route of editBoard's request, as Discord's API
// reference spells it.
const routeEditMessage = "PATCH /channels/{channel_id}/messages/{message_id}"

// editBoard replaces a board message of the bot with m, a board of the
// same game and ply drawn again: its text, its image (m.file, which takes
// the place of the old one) and its components; it pings nobody (an
// edit notifies no one anyway).
func (out *outbound) editBoard(ctx context.Context, channelID, messageID string, m message) (err error) {
	defer func() { logFault(out.log, routeEditMessage, channelID, err) }()
	comps, embeds := m.components, m.embeds
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	if embeds == nil {
		embeds = []*discordgo.MessageEmbed{}
	}
	edit := &discordgo.MessageEdit{Content: &m.content, Components: &comps, Embeds: &embeds, AllowedMentions: message{}.allowedMentions()}
	uri := discordgo.EndpointChannelMessage(channelID, messageID)
	if m.file == nil {
		_, err = out.session.RequestWithBucketID(http.MethodPatch, uri, edit, discordgo.EndpointChannelMessage(channelID, ""), discordgo.WithContext(ctx))
		return err
	}
	payload := struct {
		*discordgo.MessageEdit
		Attachments []attachmentRef `json:"attachments"`
	}{edit, m.attachmentRefs()}
	_, err = sendWithFile(ctx, out.session, http.MethodPatch, uri, discordgo.EndpointChannelMessage(channelID, ""), payload, m)
	return err
}

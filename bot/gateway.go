package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// maxReconnectWait is the longest pause between two attempts to reconnect to the gateway.
const maxReconnectWait = 10 * time.Minute

// fatalCloses explains the gateway close codes after which Discord's docs say not to reconnect.
var fatalCloses = map[int]string{
	4004: "authentication failed: the bot token is wrong or was reset; copy it again from the Developer Portal, Bot page (Reset Token)",
	4010: "invalid shard: the shard sent when identifying is not valid",
	4011: "sharding required: the bot is in too many guilds for one gateway connection",
	4012: "invalid API version: Discord no longer serves the gateway version of this build; upgrade kulamibot",
	4013: "invalid intents: the intents sent when identifying are not valid",
	4014: "disallowed intents: the bot asks for a privileged intent that is not enabled in the Developer Portal, Bot page",
}

// GatewayClosedError is Discord closing the gateway with a code after which reconnecting cannot help
// (4004 authentication failed, 4010 invalid shard, 4011 sharding required, 4012 invalid API version,
// 4013 invalid intents, 4014 disallowed intents): the operator must act, then restart the bot.
type GatewayClosedError struct {
	Code   int
	Reason string // Discord's text with the close
}

func (e *GatewayClosedError) Error() string {
	return fmt.Sprintf("Discord closed the gateway with code %d, %s", e.Code, fatalCloses[e.Code])
}

// fatalClose returns the GatewayClosedError in err, if err is a fatal close of the gateway.
func fatalClose(err error) (*GatewayClosedError, bool) {
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || fatalCloses[ce.Code] == "" {
		return nil, false
	}
	return &GatewayClosedError{Code: ce.Code, Reason: ce.Text}, true
}

// RunGateway connects to Discord's gateway and handles interactions until ctx is cancelled, then
// disconnects. Interactions need no gateway intents.
//
// When the connection drops RunGateway reconnects (resuming the session), waiting longer after each
// failed attempt, up to maxReconnectWait; discordgo's own reconnection is off, for it retries for ever
// whatever Discord says. If Discord closes the gateway with a fatal code, at the start or on a
// reconnection, RunGateway returns a *GatewayClosedError naming the cause, so that the process stops
// and its service manager shows why.
func (b *Bot) RunGateway(ctx context.Context) error {
	s := b.session
	s.Identify.Intents = discordgo.IntentsNone
	s.StateEnabled = false
	s.ShouldReconnectOnError = false
	dropped := make(chan struct{}, 1)
	removeDrop := s.AddHandler(func(*discordgo.Session, *discordgo.Disconnect) {
		select {
		case dropped <- struct{}{}:
		default:
		}
	})
	defer removeDrop()
	remove := s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		b.inflight.Add(1)
		defer b.inflight.Done()
		i := ic.Interaction
		if !b.recent.first(i.ID, time.Now()) {
			// Delivered again (the gateway replays events after a
			// resume): it was answered the first time.
			b.log.Info("interaction delivered again; it was handled already", "interaction", i.ID)
			return
		}
		b.handle(b.baseCtx, s, i, func(r *discordgo.InteractionResponse) error {
			return s.InteractionRespond(i, r, discordgo.WithContext(b.baseCtx))
		})
	})
	defer remove()
	if err := s.Open(); err != nil {
		return gatewayError("connect to the Discord gateway", err)
	}
	b.log.Info("connected to the Discord gateway")
	connected, pause := time.Now(), time.Duration(0)
	for {
		select {
		case <-ctx.Done():
			if err := s.Close(); err != nil {
				return gatewayError("disconnect from the Discord gateway", err)
			}
			return nil
		case <-dropped:
			// A connection that drops right after it opened may have been
			// closed by the heartbeat goroutine of the one before (discordgo
			// closes the session's current connection when a heartbeat on
			// its own, older one fails): pausing, longer each time, lets
			// that goroutine end before the next connection opens.
			if time.Since(connected) < quickDrop {
				pause = min(max(2*pause, time.Second), maxReconnectWait)
			} else {
				pause = 0
			}
			if err := b.reconnect(ctx, pause); err != nil {
				return err
			}
			connected = time.Now()
		}
	}
}

// quickDrop is how soon after it opened a connection that drops counts as
// dropped at once, so that the next reconnection waits (see RunGateway).
const quickDrop = 10 * time.Second

// reconnect opens the gateway again, after pause, until it works, ctx is cancelled or Discord closes
// it for good.
func (b *Bot) reconnect(ctx context.Context, pause time.Duration) error {
	if pause > 0 {
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
	}
	wait := time.Second
	for {
		err := b.session.Open()
		if errors.Is(err, discordgo.ErrWSAlreadyOpen) {
			return nil // a second notice of the same drop
		}
		if err == nil {
			b.log.Info("reconnected to the Discord gateway")
			return nil
		}
		if _, fatal := fatalClose(err); fatal {
			return gatewayError("reconnect to the Discord gateway", err)
		}
		b.log.Warn("cannot reconnect to the Discord gateway; trying again", "in", wait, "err", RedactError(err))
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
		wait = min(2*wait, maxReconnectWait)
	}
}

// gatewayError describes a failure of what the bot was doing with the gateway, naming a fatal close.
func gatewayError(what string, err error) error {
	if fc, fatal := fatalClose(err); fatal {
		return fmt.Errorf("%s: %w", what, fc)
	}
	return fmt.Errorf("%s: %w", what, RedactError(err))
}

package bot

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// The schedule of reconnections (see backoff): the first attempt after a drop is at once; each
// further one, until a connection has stayed up for healthyFor, waits a random time up to a ceiling
// that doubles from reconnectBase up to maxReconnectWait.
const (
	reconnectBase    = time.Second
	maxReconnectWait = time.Minute
	healthyFor       = time.Minute
)

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
// When the connection drops RunGateway reconnects (resuming the session) at once, and then, while
// the connections keep dropping or failing, after random waits of growing ceiling, up to
// maxReconnectWait (see backoff); discordgo's own reconnection is off, for it retries for ever
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
	// The raw event, not discordgo's InteractionCreate: discordgo drops
	// the interaction's channel, whose recipients say who is in a DM.
	remove := s.AddHandler(func(s *discordgo.Session, e *discordgo.Event) {
		ic, ok := e.Struct.(*discordgo.InteractionCreate)
		if e.Type != "INTERACTION_CREATE" || !ok || ic.Interaction == nil {
			return
		}
		b.inflight.Add(1)
		defer b.inflight.Done()
		i := ic.Interaction
		if !b.recent.first(i.ID, time.Now()) {
			// Delivered again (the gateway replays events after a
			// resume): it was answered the first time.
			b.log.Info("interaction delivered again; it was handled already", "interaction", i.ID)
			return
		}
		b.handle(b.baseCtx, s, i, recipientsOf(e.RawData), func(r *discordgo.InteractionResponse) (err error) {
			defer func() { logFault(b.log, routeCallback, i.ChannelID, err) }()
			return s.InteractionRespond(i, r, discordgo.WithContext(b.baseCtx))
		})
	})
	defer remove()
	if err := s.Open(); err != nil {
		return gatewayError("connect to the Discord gateway", err)
	}
	b.log.Info("connected to the Discord gateway")
	bo := backoff{rand: rand.Int64N}
	bo.opened(time.Now())
	for {
		select {
		case <-ctx.Done():
			if err := s.Close(); err != nil {
				return gatewayError("disconnect from the Discord gateway", err)
			}
			return nil
		case <-dropped:
			if err := b.reconnect(ctx, &bo); err != nil {
				return err
			}
		}
	}
}

// backoff is the schedule of waits before reconnecting to the gateway. The first attempt after a
// drop is at once, so that a drop after a healthy connection delays no answer. Until a connection
// stays up for healthyFor, each further attempt (a failed one, or one after a quick drop) waits a
// random time between zero and a ceiling that doubles from reconnectBase up to maxReconnectWait
// ("full jitter"): a connection that drops right after it opened may have been closed by the
// heartbeat goroutine of the one before (discordgo closes the session's current connection when a
// heartbeat on its own, older one fails), and waiting lets that goroutine end; the randomness keeps
// the bots that Discord dropped together from coming back together. Time is an argument: RunGateway
// gives the system's, not the bot's Clock, for the waits are for discordgo's goroutines. A backoff
// is not safe for concurrent use: RunGateway's loop owns it.
type backoff struct {
	rand     func(n int64) int64 // uniform in [0, n)
	attempts int                 // since a connection was last healthy
	up       time.Time           // when the connection opened; zero while it is down
}

// opened records that the connection opened at now.
func (bo *backoff) opened(now time.Time) { bo.up = now }

// next returns how long to wait, at now, before the next attempt to connect.
func (bo *backoff) next(now time.Time) time.Duration {
	if !bo.up.IsZero() && now.Sub(bo.up) >= healthyFor {
		bo.attempts = 0
	}
	bo.up = time.Time{}
	bo.attempts++
	if bo.attempts == 1 {
		return 0
	}
	ceiling := maxReconnectWait
	if doublings := bo.attempts - 2; doublings < 32 {
		ceiling = min(reconnectBase<<doublings, maxReconnectWait)
	}
	return time.Duration(bo.rand(int64(ceiling) + 1))
}

// reconnect opens the gateway again, waiting as bo says before each attempt, until it works, ctx is
// cancelled or Discord closes it for good.
func (b *Bot) reconnect(ctx context.Context, bo *backoff) error {
	wait := bo.next(time.Now())
	for {
		if wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return nil
			case <-t.C:
			}
		}
		err := b.session.Open()
		if errors.Is(err, discordgo.ErrWSAlreadyOpen) {
			bo.opened(time.Now())
			return nil // a second notice of the same drop
		}
		if err == nil {
			bo.opened(time.Now())
			b.log.Info("reconnected to the Discord gateway")
			return nil
		}
		if _, fatal := fatalClose(err); fatal {
			return gatewayError("reconnect to the Discord gateway", err)
		}
		wait = bo.next(time.Now())
		b.log.Warn("cannot reconnect to the Discord gateway; trying again", "in", wait, "err", RedactError(err))
	}
}

// gatewayError describes a failure of what the bot was doing with the gateway, naming a fatal close.
func gatewayError(what string, err error) error {
	if fc, fatal := fatalClose(err); fatal {
		return fmt.Errorf("%s: %w", what, fc)
	}
	return fmt.Errorf("%s: %w", what, RedactError(err))
}

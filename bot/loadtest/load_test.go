package loadtest

import (
	"flag"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// The knobs of TestLoad. The defaults are the short load CI runs.
var (
	games    = flag.Int("games", 6, "games played at once")
	duration = flag.Duration("duration", 10*time.Second, "how long players go on starting interactions")
	latency  = Latency{Min: 50 * time.Millisecond, Max: 100 * time.Millisecond}
	think    = flag.Duration("think", 0, "a player's average time to answer (0: at once)")
	layouts  = flag.String("layouts", "square,random,irregular", "the boards of the games, in turn")
	typed    = flag.Float64("typed", 0.1, "the share of moves typed with /kulami move")
	botBin   = flag.String("bot", "", "a kulamibot binary to load (default: build it)")
	procs    = flag.Int("processes", 1, "kulamibot processes, taking the interactions in turn (more than one needs -backend postgres)")
	pin      = flag.Bool("pin", false, "run each kulamibot process on one CPU of its own (process k on CPU k), with GOMAXPROCS=1")
	backend  = flag.String("backend", "bbolt", "where the bot keeps its games: bbolt or postgres (a schema on the tests' server: see storage/postgres/pgtest)")
	fault    = flag.String("fault", faultNone, "the fault injected: "+strings.Join(faultKinds, ", "))
	rate     = flag.Float64("fault-rate", 0.05, "discord500, discordhang: the share of the bot's REST calls hit")
	every    = flag.Duration("fault-every", 5*time.Second, "pgrestart: how often the bot's connections are ended; pglock: the pause between two locks")
	hold     = flag.Duration("fault-hold", 10*time.Second, "pglock: how long a game's row stays locked")
	storm    = flag.Int("storm", 8, "reviews, gifs: the users of the storm")
	restart  = flag.Duration("restart-at", 600*time.Millisecond, "burst: when, after the start, the bot restarts")
	burnN    = flag.Int("burn", 0, "busy loops beside the bot, as other work on the machine (2 on 2 cores: a load average of about 4)")
)

func init() {
	flag.Var(&latency, "latency", "the time of every REST call of the bot: 50ms-100ms, or 50ms")
}

// TestLoad drives kulamibot with the load its flags describe, prints the
// report and fails on any problem: a failed interaction (without a
// fault), a request Discord would refuse, an error the bot logged
// (without a fault), a move lost or doubled. It asserts no timing: the
// players go on past -duration until they have played a move (and the
// fault has struck before it), however slow the machine.
func TestLoad(t *testing.T) {
	rep := Run(t, Config{
		Games: *games, Duration: *duration, Latency: latency, Think: *think,
		Layouts: strings.Split(*layouts, ","), Typed: *typed, Bot: *botBin,
		Processes: *procs, Backend: *backend, Pin: *pin,
		Fault: Fault{Kind: *fault, Rate: *rate, Every: *every, Hold: *hold, Users: *storm, RestartAt: *restart}, UntilStruck: true,
		Burn: *burnN,
	})
	rep.Print(os.Stdout)
	assert.Empty(t, rep.Problems)
	assert.Positive(t, rep.Moves, "the players got to play")
}

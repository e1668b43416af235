package bot

import (
	"time"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/draw/lru"
)

// replayCacheBytes is the memory the animated replays kept may hold: 16
// MiB, some thirty whole games' replays and more of shorter ones (a
// 56-move game at draw.DefaultAnimationWidth is 540 KB). A storm of
// replays costs the process this, and the garbage collector's room as
// much again, on top of the two frames each render holds: within the
// 40 MiB over idle that a storm may cost.
const replayCacheBytes = 16 << 20

// replayRepost is how long after its replay was posted a click on Replay
// (GIF) is answered with a link to it, only for the clicker; a click
// later posts the replay kept again, since the first has scrolled away.
const replayRepost = time.Hour

// replayKey names an animated replay: a finished game of a guild, drawn
// in a language (its frames show the players' names and the outcome in
// words) and as the guild's boards look.
type replayKey struct {
	guild string
	game  uint64
	lang  i18n.Lang
	look  look
}

// replay is the animated replay of a game, and where it was posted. Its
// fields are the holder's of turn: one click at a time draws it or posts
// it, and the others wait for their turn, then link to the post.
type replay struct {
	turn   chan struct{} // holds a token while a click works on the replay
	gif    []byte        // nil until drawn
	link   string        // the message it was posted in; "" until then
	posted time.Time     // when
}

// replays keeps the animated replays drawn, the most recently used within
// a budget of bytes, so that a game's replay is drawn once: a finished
// game never changes, so a replay kept is never stale. A replay evicted
// while a click works on it stays valid for that click.
type replays = lru.Cache[replayKey, *replay]

// newReplay is a replay not drawn yet.
func newReplay() *replay { return &replay{turn: make(chan struct{}, 1)} }

// newReplays returns an empty cache of budget bytes.
func newReplays(budget int) *replays { return lru.New[replayKey, *replay](budget) }

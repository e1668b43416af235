package bot

import (
	"context"
	"errors"
	"log/slog"
	"runtime"

	"github.com/kulami/kulami/bot/jobs"
)

// The classes of the bot's slow work, run by the bot's runner (see package
// jobs): the computer's searches on one worker, since each uses every
// core, with its moves (and hints) before reviews; renders on a worker a
// core, boards before GIF replays, and last the boards drawn again for an
// edit (boardedit.go), which nobody waits for; and on a pool of their own,
// the tries again of what Discord failed after a change committed
// (mend.go), which wait for Discord, not for the machine.
const (
	jobMove   = "move"
	jobReview = "review"
	jobRender = "render"
	jobGIF    = "gif"
	jobEdit   = "edit"
	jobMend   = "mend"
)

// menders is how many tries of what Discord failed run at once.
const menders = 4

// reviewQueue is the most reviews waiting for the computer; each user has
// one queued or running at most.
const reviewQueue = 8

// newRunner returns the runner of the bot's slow work, logging to log the
// jobs that fail.
func newRunner(log *slog.Logger) *jobs.Runner {
	return jobs.New(jobs.Config{
		Pools: []jobs.Pool{{Name: "search", Workers: 1}, {Name: "render", Workers: runtime.GOMAXPROCS(0)}, {Name: "discord", Workers: menders}},
		Classes: []jobs.Class{
			{Name: jobMove, Pool: "search", Queue: 1024},
			{Name: jobReview, Pool: "search", Priority: 1, Queue: reviewQueue, PerOwner: 1},
			{Name: jobRender, Pool: "render", Queue: 1024},
			{Name: jobGIF, Pool: "render", Priority: 1, Queue: 16},
			{Name: jobEdit, Pool: "render", Priority: 2, Queue: dueAtOnce},
			{Name: jobMend, Pool: "discord", Queue: 1024},
		},
		Failed: func(j jobs.Job, err error) {
			level := slog.LevelError
			if errors.Is(err, context.Canceled) {
				level = slog.LevelWarn // stopped by the shutdown
			}
			log.Log(context.Background(), level, "a job failed", "class", j.Class, "job", j.Key, "err", err)
		},
	})
}

// render runs draw, a render of class jobRender, jobGIF or jobEdit, within the
// render bound: renders at once gain nothing past one per core and cost
// memory.
func (v *views) render(class string, draw func() error) error {
	return v.runner.Do(v.baseCtx, jobs.Job{Class: class, Run: func(context.Context) error { return draw() }})
}

// Package jobs runs the bot's slow work (the computer's moves, reviews,
// board renders and GIF replays) on a bounded number of workers, with
// priorities, bounded queues, a limit per owner and dedupe by key, instead
// of a goroutine per request.
//
// A Runner has pools of workers, one per resource the work uses, and
// classes of jobs, each served by one pool. Within a pool a waiting job of
// a class of higher priority (a lower Priority) always starts before one
// of a lower class; within a class jobs start first come, first served.
// The bot uses two pools, because its work uses two resources:
//
//   - "search", one worker: a computer search uses every core, so one runs
//     at a time. Its classes are the computer's moves (and hints) first,
//     then reviews. A review yields its worker between positions (Yield),
//     so a move waits for one position's search at most, never for a
//     review, let alone for the reviews queued.
//   - "render", one worker per core: renders of boards first, then GIF
//     replays, which draw a frame a move.
//
// A class's queue is bounded (Submit refuses with ErrQueueFull), and so
// are the jobs of one owner in a class (ErrOwnerLimit); a job whose key is
// already queued or running is refused with ErrDuplicate. Position tells
// a job's place in the line and about how long the jobs before it take,
// for an honest "you are N-th" answer.
//
// Close stops intake, waits for the running and queued jobs, and once its
// context ends cancels the running ones, drops the queued ones (calling
// their Drop) and reports them.
//
// Usage:
//
//	r := jobs.New(jobs.Config{
//		Pools:   []jobs.Pool{{Name: "search", Workers: 1}},
//		Classes: []jobs.Class{{Name: "move", Pool: "search", Queue: 256}, {Name: "review", Pool: "search", Priority: 1, Queue: 8, PerOwner: 1}},
//	})
//	place, err := r.Submit(jobs.Job{Class: "review", Key: "game 7", Owner: userID, Run: func(ctx context.Context) error {
//		... // long work that calls jobs.Yield(ctx) now and then
//	}})
//	err = r.Do(ctx, jobs.Job{Class: "move", Run: search}) // waits for the job
//	left, err := r.Close(ctx)
//
// Idle waits until no job is queued or running, for a caller that must
// see the work done. Stats reports, by class, the jobs waiting and running and the time the
// jobs started waited for a worker, as plain figures for monitoring.
//
// A Runner is safe for concurrent use. It starts no goroutine of its own:
// a job submitted runs on a goroutine started when a worker takes it, and
// a job done with Do on the caller's.
package jobs

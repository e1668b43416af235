package bot

import (
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/jobs"
	"github.com/kulami/kulami/engine/game"
)

// Metrics is told what the bot does, for the people who run it: package
// bot/metrics counts it for Prometheus, and the bot knows nothing of how.
// Its methods must be quick and safe for concurrent use. Names are few:
// kind is command, autocomplete, component or other; name is a
// subcommand, a component's action or "other", never an ID.
type Metrics interface {
	// Interaction: an interaction of kind for name came in.
	Interaction(kind, name string)
	// Answered: the first response to it (an answer or a deferral) went
	// to Discord after this long.
	Answered(kind, name string, after time.Duration)
	// Moved: n moves were played in a game, by people or the computer.
	Moved(n int)
	// GameEnded: a game ended, as ending says.
	GameEnded(ending game.Ending)
	// Reminded: a reminder to move was posted in a game's channel (err
	// nil), or could not be.
	Reminded(err error)
}

// noMetrics is the Metrics of a bot that counts nothing.
type noMetrics struct{}

func (noMetrics) Interaction(string, string)             {}
func (noMetrics) Answered(string, string, time.Duration) {}
func (noMetrics) Moved(int)                              {}
func (noMetrics) GameEnded(game.Ending)                  {}
func (noMetrics) Reminded(error)                         {}

// JobStats returns the figures of each class of the bot's slow work (see
// work.go), for monitoring.
func (b *Bot) JobStats() []jobs.ClassStats { return b.runner.Stats() }

// metricName returns the kind of i and its name as Metrics takes them:
// only names the bot handles, so that a forged or old custom ID adds no
// label value.
func (b *Bot) metricName(i *discordgo.Interaction) (kind, name string) {
	name = interactionName(i)
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		kind = "command"
		if i.Type == discordgo.InteractionApplicationCommandAutocomplete {
			kind = "autocomplete"
		}
		if _, ok := b.commands[name]; !ok {
			name = "other"
		}
	case discordgo.InteractionMessageComponent:
		kind = "component"
		if _, ok := b.components[name]; !ok {
			name = "other"
		}
	default:
		kind, name = "other", "other"
	}
	return kind, name
}

// timed returns respond, telling the bot's Metrics how long after start
// the first response went.
func (b *Bot) timed(respond respondFunc, kind, name string, start time.Time) respondFunc {
	return func(r *discordgo.InteractionResponse) error {
		err := respond(r)
		if err == nil {
			b.metrics.Answered(kind, name, b.clock.Now().Sub(start))
		}
		return err
	}
}

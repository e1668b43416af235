package bot

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"
)

// RunGateway connects to Discord's gateway and handles interactions until
// ctx is cancelled, then disconnects. Interactions need no gateway intents.
func (b *Bot) RunGateway(ctx context.Context) error {
	s := b.session
	s.Identify.Intents = discordgo.IntentsNone
	s.StateEnabled = false
	remove := s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		b.inflight.Add(1)
		defer b.inflight.Done()
		i := ic.Interaction
		b.handle(b.baseCtx, s, i, func(r *discordgo.InteractionResponse) error {
			return s.InteractionRespond(i, r, discordgo.WithContext(b.baseCtx))
		})
	})
	defer remove()
	if err := s.Open(); err != nil {
		return fmt.Errorf("connect to the Discord gateway: %w", err)
	}
	b.log.Info("connected to the Discord gateway")
	<-ctx.Done()
	if err := s.Close(); err != nil {
		return fmt.Errorf("disconnect from the Discord gateway: %w", err)
	}
	return nil
}

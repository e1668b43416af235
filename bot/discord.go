package bot

import (
	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/storage"
)

// This file holds the bot's REST calls to Discord with its own token:
// messages that are not answers to an interaction.

// send posts m in a channel, as the bot.
func (b *Bot) send(channelID string, m message) (*discordgo.Message, error) {
	comps := m.components
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	return b.session.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
		Content:         m.content,
		Embeds:          m.embeds,
		Components:      comps,
		Files:           m.files(),
		AllowedMentions: m.allowedMentions(),
	}, discordgo.WithContext(b.baseCtx))
}

// retire removes the menus of an old board message. A board that cannot be
// edited (deleted, say) is left alone: its clicks are refused anyway.
func (b *Bot) retire(channelID, messageID string) {
	_, err := b.session.ChannelMessageEditComplex(&discordgo.MessageEdit{
		ID: messageID, Channel: channelID, Components: &[]discordgo.MessageComponent{},
	}, discordgo.WithContext(b.baseCtx))
	if err != nil {
		b.log.Warn("cannot retire an old board", "channel", channelID, "message", messageID, "err", err)
	}
}

// dm sends a direct message; a user who accepts none is logged, not an
// error.
func (b *Bot) dm(userID, text string) {
	ch, err := b.session.UserChannelCreate(userID, discordgo.WithContext(b.baseCtx))
	if err == nil {
		_, err = b.send(ch.ID, message{content: text})
	}
	if err != nil {
		b.log.Info("cannot send a reminder by DM", "user", userID, "err", err)
	}
}

// editChallenge replaces the text of a challenge's message and removes its
// buttons.
func (b *Bot) editChallenge(ch *storage.Challenge, text string) {
	if ch.MessageID == "" {
		return
	}
	_, err := b.session.ChannelMessageEditComplex(&discordgo.MessageEdit{
		ID: ch.MessageID, Channel: ch.ChannelID, Content: &text, Components: &[]discordgo.MessageComponent{},
		AllowedMentions: message{}.allowedMentions(),
	}, discordgo.WithContext(b.baseCtx))
	if err != nil {
		b.log.Warn("cannot edit the challenge message", "channel", ch.ChannelID, "message", ch.MessageID, "err", err)
	}
}

package bot

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine/rating"
	"github.com/kulami/kulami/storage"
)

// seasonOption reads the season option of /kulami leaderboard at now:
// the season under way ("current"), the one before ("previous"), or
// zero for the all-time ladder ("all-time", the default).
func seasonOption(v string, now time.Time) (storage.Season, error) {
	switch v {
	case "", "all-time":
		return 0, nil
	case "current":
		return rating.SeasonOf(now), nil
	case "previous":
		return rating.SeasonOf(now) - 1, nil
	}
	return 0, refuse("season.pick")
}

// seasonName names a season in lang with its dates: "2026 Q4, 1 Oct –
// 31 Dec".
func seasonName(lang i18n.Lang, s storage.Season) string {
	months := strings.Fields(lang.T("season.months"))
	date := func(t time.Time) string {
		month := t.Month().String()
		if len(months) == 12 {
			month = months[t.Month()-1]
		}
		return lang.T("season.date", "Day", t.Day(), "Month", month)
	}
	return lang.T("season.name", "Year", strconv.Itoa(s.Year()), "Quarter", s.Quarter(), // a year has no thousands separator
		"From", date(s.Start()), "To", date(s.End().Add(-time.Nanosecond)))
}

// podiumSize is how many players the end of a season names.
const podiumSize = 3

// errSeasonDone: the end of the season was dealt with already (by this
// bot or another sharing the store), or the guild no longer wants it.
var errSeasonDone = errors.New("the end of the season was dealt with")

// endSeasons deals with the end of the season before now's in every guild
// that chose a season channel and has not had it yet: it posts there the
// top three of that season's human ladder, once across every bot sharing
// the store. It looks at the guilds once a season, and again at every
// call while some work failed or is another bot's (whose lease may
// lapse). It reports whether something failed.
func (s *scheduler) endSeasons(ctx context.Context, now time.Time) bool {
	current := rating.SeasonOf(now)
	if storage.Season(s.seasonsDone.Load()) == current {
		return false
	}
	guilds, err := s.store.SeasonChannels(ctx)
	if err != nil {
		s.logFailure(ctx, "scheduler cannot read the season channels", "err", err)
		return true
	}
	failed, pending := false, false
	for _, g := range guilds {
		if g.Settings.SeasonPosted >= current-1 {
			continue
		}
		mine, err := s.endSeason(ctx, g.GuildID, current-1, now)
		if err != nil {
			s.logFailure(ctx, "cannot post the end of a season", "guild", g.GuildID, "season", (current - 1).String(), "err", err)
			failed = true
		}
		pending = pending || !mine
	}
	if !failed && !pending {
		s.seasonsDone.Store(int32(current))
	}
	return failed
}

// endSeason posts the top three of the season in the season channel of
// the guild, if this bot claims the work and the guild has not had it
// yet; it reports whether this bot had the work (false: another bot
// holds it). The season is marked dealt with before the post, so it is
// never posted twice: a post that fails is lost, and logged.
func (s *scheduler) endSeason(ctx context.Context, guildID string, season storage.Season, now time.Time) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, dueWithin)
	defer cancel()
	w := storage.Wake{Kind: storage.WakeSeason, ChannelID: guildID, At: season.End()}
	if mine, err := s.store.Claim(ctx, w, s.owner, now, leaseFor); err != nil || !mine {
		return mine, err
	}
	top, _, err := s.store.SeasonLeaderboard(ctx, guildID, season, storage.Human, 0, podiumSize)
	if err != nil {
		return true, err
	}
	var channel string
	_, err = s.store.UpdateGuildSettings(ctx, guildID, func(g *storage.GuildSettings) error {
		if g.SeasonChannel == "" || g.SeasonPosted >= season {
			return errSeasonDone
		}
		g.SeasonPosted, channel = season, g.SeasonChannel
		return nil
	})
	switch {
	case errors.Is(err, errSeasonDone):
		return true, nil
	case err != nil:
		return true, err
	case len(top) == 0:
		return true, nil // nobody played: nothing to crown
	}
	s.links.Champion(guildID, top[0].UserID)
	lang := s.langs.guildLang(ctx, guildID)
	// The top three are pinged (a mention in an embed pings nobody), as
	// a notice: not those in their quiet hours.
	podium := make([]string, len(top))
	var ids []string
	for i, pr := range top {
		podium[i], ids = "<@"+pr.UserID+">", append(ids, pr.UserID)
	}
	m := message{content: "🏆 " + lang.T("season.podium", "Players", strings.Join(podium, " ")), mentions: ids, embeds: []*discordgo.MessageEmbed{{
		Title:       "🏆 " + lang.T("season.over", "Season", seasonName(lang, season)),
		Description: strings.Join(rankLines(lang, top, 0), "\n"),
		Color:       embedColor,
		Footer:      &discordgo.MessageEmbedFooter{Text: lang.T("season.over_footer")},
	}}}
	if _, err := s.table.notices.post(ctx, nil, channel, m); err != nil {
		s.log.Warn("the top three of a season could not be posted; they are not posted again", "guild", guildID, "season", season.String(), "channel", channel, "err", err)
	}
	return true, nil
}

// seasonChannel checks that the bot can post in the channel chosen for the
// seasons' top three, by posting there what it will do, in the server's
// language, and returns the refusal to answer if it cannot.
func (pf *preferences) seasonChannel(c *interaction, channelID string) error {
	return pf.tryChannel(c, channelID, "🏆 "+pf.langs.publicLang(c).T("season.channel_chosen"), "season.cannot_post")
}

// tryChannel posts text in the channel a server chose for the bot's
// posts, to check that the bot can post there, and returns the refusal
// refusal (naming the channel) if it cannot.
func (pf *preferences) tryChannel(c *interaction, channelID, text, refusal string) error {
	_, err := pf.out.send(c.ctx, channelID, message{content: text})
	switch restCode(err) {
	case 0:
		return err
	case discordgo.ErrCodeMissingPermissions, discordgo.ErrCodeMissingAccess, discordgo.ErrCodeUnknownChannel:
		return refuse(refusal, "Channel", fmt.Sprintf("<#%s>", channelID))
	}
	return err
}

package bot

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/engine/tournament"
	"github.com/kulami/kulami/storage"
)

// tournamentPosts are a tournament's public messages: its announcement
// with the player list (kept up to date), its scheduled event, and its
// standings. It is safe for concurrent use.
type tournamentPosts struct {
	store    TournamentStore
	out      *outbound
	langs    *locales
	notices  *notices
	renderer *draw.Renderer // draws the standings with the boards' fonts
	log      *slog.Logger
}

// scheduleEvent creates a Discord scheduled event for the start of st,
// if it has a start time and the bot may (perms are its permissions in
// the channel); it returns the event's ID, or "" (a missing permission is
// only logged).
func (tp *tournamentPosts) scheduleEvent(ctx context.Context, lang i18n.Lang, st *storage.Tournament, perms int64) string {
	start := st.Settings().Start
	if start.IsZero() {
		return ""
	}
	if perms&(discordgo.PermissionManageEvents|discordgo.PermissionCreateEvents|discordgo.PermissionAdministrator) == 0 {
		tp.log.Info("no scheduled event for a tournament: the bot may not create events", "guild", st.GuildID, "tournament", st.ID)
		return ""
	}
	end := start.Add(time.Duration(st.Settings().Rounds*st.Settings().DaysPerRound) * 24 * time.Hour)
	ev, err := tp.out.session.GuildScheduledEventCreate(st.GuildID, &discordgo.GuildScheduledEventParams{
		Name:               truncate(st.Settings().Name, 100),
		Description:        truncate(lang.N("tournament.event_description", st.Settings().Rounds, "Days", roundDays(lang, st.Settings())), 1000),
		ScheduledStartTime: &start, ScheduledEndTime: &end,
		PrivacyLevel:   discordgo.GuildScheduledEventPrivacyLevelGuildOnly,
		EntityType:     discordgo.GuildScheduledEventEntityTypeExternal,
		EntityMetadata: &discordgo.GuildScheduledEventEntityMetadata{Location: truncate("#"+channelName(ctx, tp.out, st.ChannelID), 100)},
	}, discordgo.WithContext(ctx))
	if err != nil {
		tp.log.Warn("cannot create the scheduled event of a tournament", "guild", st.GuildID, "tournament", st.ID, "err", err)
		return ""
	}
	return ev.ID
}

// dropEvent deletes the scheduled event of st, a tournament called off,
// if it has one; a failure is only logged.
func (tp *tournamentPosts) dropEvent(ctx context.Context, st *storage.Tournament) {
	if st.EventID == "" {
		return
	}
	if err := tp.out.session.GuildScheduledEventDelete(st.GuildID, st.EventID, discordgo.WithContext(ctx)); err != nil {
		tp.log.Warn("cannot delete the scheduled event of a cancelled tournament", "guild", st.GuildID, "tournament", st.ID, "err", err)
	}
}

// channelName returns the name of a channel, or its ID if Discord does
// not say.
func channelName(ctx context.Context, out *outbound, id string) string {
	if ch, err := out.session.Channel(id, discordgo.WithContext(ctx)); err == nil && ch.Name != "" {
		return ch.Name
	}
	return id
}

// announce posts the announcement of a new tournament, a new message, and
// notes it and its event with the tournament.
func (tp *tournamentPosts) announce(ctx context.Context, st *storage.Tournament, eventID string) {
	lang := tp.langs.guildLang(ctx, st.GuildID)
	msg, err := tp.out.send(ctx, st.ChannelID, announcement(lang, st))
	if err != nil {
		tp.log.Warn("cannot post a tournament's announcement", "guild", st.GuildID, "tournament", st.ID, "err", err)
		return
	}
	if _, err := tp.store.UpdateTournament(ctx, st.GuildID, st.ID, st.Changed, func(t *storage.Tournament) error {
		t.AnnouncementID, t.EventID = msg.ID, eventID
		return nil
	}); err != nil {
		tp.log.Warn("cannot note a tournament's announcement", "guild", st.GuildID, "tournament", st.ID, "err", err)
	}
}

// refresh edits the announcement of st to its current players and state.
func (tp *tournamentPosts) refresh(ctx context.Context, st *storage.Tournament) {
	if st.AnnouncementID == "" {
		return
	}
	m := announcement(tp.langs.guildLang(ctx, st.GuildID), st)
	comps := m.components
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	content := m.content
	if _, err := tp.out.session.ChannelMessageEditComplex(&discordgo.MessageEdit{
		Channel: st.ChannelID, ID: st.AnnouncementID, Content: &content, Components: &comps,
		AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}},
	}, discordgo.WithContext(ctx)); err != nil {
		tp.log.Warn("cannot update a tournament's announcement", "guild", st.GuildID, "tournament", st.ID, "err", err)
	}
}

// announcement is the message that announces st, in lang: its settings,
// its start, its players and, while it takes players, Join and Leave.
func announcement(lang i18n.Lang, st *storage.Tournament) message {
	set := st.Settings()
	start := lang.T("tournament.start_full", "Max", set.MaxPlayers)
	if !set.Start.IsZero() {
		start = fmt.Sprintf("<t:%d:f> (<t:%d:R>)", set.Start.Unix(), set.Start.Unix())
	}
	board := lang.T("command.choices.layout." + cmpStr(set.Layout, "square"))
	rules := lang.T("rules." + cmpStr(set.Rules, "basic"))
	var players []string
	for _, p := range st.Players() {
		name := "<@" + p.ID + ">"
		if p.Withdrawn {
			name = "~~" + name + "~~"
		}
		players = append(players, name)
	}
	list := lang.T("tournament.players_none")
	if len(players) > 0 {
		list = strings.Join(players, ", ")
	}
	limit := ""
	if set.MaxPlayers > 0 {
		limit = fmt.Sprintf("/%d", set.MaxPlayers)
	}
	moveTime := lang.T("tournament.move_time_default")
	if set.MoveTime > 0 {
		moveTime = lang.Duration(set.MoveTime).String()
	}
	lines := []string{
		lang.T("tournament.announce_title", "Name", escape(set.Name), "ID", st.ID, "Organiser", "<@"+st.Organiser()+">"),
		lang.N("tournament.announce_settings", set.Rounds, "Days", roundDays(lang, set), "Board", board, "Rules", rules, "MoveTime", moveTime),
	}
	if set.Duplicate {
		lines = append(lines, lang.T("tournament.announce_duplicate"))
	}
	lines = append(lines,
		lang.T("tournament.announce_start", "Start", start),
		lang.T("tournament.announce_players", "Count", len(players), "Limit", limit, "Players", list),
		lang.T("tournament.announce_state", "State", phaseText(lang, st)))
	m := message{content: truncate(strings.Join(lines, "\n"), 2000)}
	if taking(st) {
		id := func(a string) string { return customID{action: a, channel: st.ChannelID, id: st.ID}.String() }
		m.components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: lang.T("button.join"), Style: discordgo.SuccessButton, CustomID: id(actTJoin)},
			discordgo.Button{Label: lang.T("button.leave"), Style: discordgo.SecondaryButton, CustomID: id(actTLeave)},
		}}}
	}
	return m
}

// roundDays says in lang how long set gives each round: "7 days".
func roundDays(lang i18n.Lang, set tournament.Settings) i18n.Duration {
	return lang.Duration(time.Duration(set.DaysPerRound) * 24 * time.Hour)
}

// cmpStr returns s, or def if s is empty.
func cmpStr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// resultMark writes a game of pairing p's result from its first
// player's side: a win by forfeit as +– or –+ (the chess sites' marks for
// a game not played), a double forfeit as 0–0, an adjudicated result with
// a *.
func resultMark(p tournament.Pairing, g tournament.Game) string {
	switch {
	case p.DoubleForfeit():
		return "0–0"
	case g.NoShow == g.Second && g.NoShow != "":
		return "+–"
	case g.NoShow == g.First && g.NoShow != "":
		return "–+"
	}
	mark := map[tournament.Result]string{tournament.Pending: "…", tournament.FirstWon: "1–0", tournament.Drawn: "½–½", tournament.SecondWon: "0–1"}[g.Result]
	if g.Adjudicated {
		mark += "*"
	}
	return mark
}

// pairingsText lists the pairings of round r of st with their results,
// in lang.
func pairingsText(lang i18n.Lang, st *storage.Tournament, r tournament.Round) string {
	lines := []string{lang.T("tournament.pairings_title", "Name", escape(st.Settings().Name), "Round", r.Number,
		"Rounds", st.Settings().Rounds, "Deadline", fmt.Sprintf("<t:%d:f>", r.Deadline.Unix()))}
	legend := false // a mark the legend explains is shown
	for _, p := range r.Pairings {
		var marks []string
		for _, g := range p.Games {
			marks = append(marks, resultMark(p, g))
			legend = legend || g.Adjudicated || g.NoShow != ""
		}
		line := lang.T("tournament.pairing_line", "Board", p.Board, "First", "<@"+p.First+">", "Second", "<@"+p.Second+">", "Result", strings.Join(marks, " · "))
		for i, g := range p.Games {
			if ch := st.Opened[tournament.GameRef{Round: r.Number, Board: p.Board, Game: i + 1}.String()]; ch != "" && g.Result == tournament.Pending {
				line += " <#" + ch + ">"
			}
		}
		lines = append(lines, line)
	}
	if r.Bye != "" {
		lines = append(lines, lang.T("tournament.bye_line", "Player", "<@"+r.Bye+">"))
	}
	if st.Settings().Duplicate {
		lines = append(lines, lang.T("tournament.pairings_duplicate"))
	}
	if legend {
		lines = append(lines, lang.T("tournament.pairings_legend"))
	}
	return strings.Join(lines, "\n")
}

// standingsName is the name of st as its standings show it, in lang: a
// cancelled tournament's says so.
func standingsName(lang i18n.Lang, st *storage.Tournament) string {
	if phase, _ := st.State(); phase == tournament.Cancelled {
		return st.Settings().Name + " " + lang.T("tournament.cancelled_mark")
	}
	return st.Settings().Name
}

// standingsTitle is the key of the title of st's standings in lang, and
// its placeholders: after the last round complete (the one being played
// does not count yet), or before any is.
func standingsTitle(st *storage.Tournament, key string) (string, []any) {
	if n := st.Completed(); n > 0 {
		return key, []any{"Round", n, "Rounds", st.Settings().Rounds}
	}
	return key + "_start", []any{"Rounds", st.Settings().Rounds}
}

// standingsText lists the standings of st in lang, at most 40 lines.
func standingsText(lang i18n.Lang, st *storage.Tournament, rows []tournament.Standing) string {
	key, args := standingsTitle(st, "tournament.standings_title")
	lines := []string{lang.T(key, append(args, "Name", escape(standingsName(lang, st)))...)}
	for i, s := range rows {
		if i == 40 {
			break
		}
		line := lang.T("tournament.standings_line", "Rank", s.Rank, "Player", "<@"+s.Player+">", "Points", s.Points.String(),
			"Cut", s.BuchholzCut1.String(), "BH", s.Buchholz.String(), "SB", lang.Decimal(s.SonnebornBerger, 2))
		if s.Withdrawn {
			line += " " + lang.T("tournament.withdrawn_mark")
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// standingsMessage is the standings of st as an image and as text.
func (tp *tournamentPosts) standingsMessage(ctx context.Context, lang i18n.Lang, st *storage.Tournament) (message, error) {
	rows := st.Standings()
	text := standingsText(lang, st, rows)
	if st.FinalPosted || isFinished(st) {
		text = podium(lang, st, rows) + "\n" + text
	}
	png, err := tp.standingsImage(ctx, lang, st, rows)
	if err != nil {
		return message{}, err
	}
	return message{content: truncate(text, 2000), file: &attachment{name: "standings.png", contentType: "image/png", data: png,
		description: truncate(lang.T("tournament.standings_alt", "Name", st.Settings().Name), 1024)}}, nil
}

// isFinished reports whether st has played its last round.
func isFinished(st *storage.Tournament) bool {
	phase, _ := st.State()
	return phase == tournament.Finished
}

// standingsImage draws the standings of st, in lang.
func (tp *tournamentPosts) standingsImage(ctx context.Context, lang i18n.Lang, st *storage.Tournament, rows []tournament.Standing) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := tp.renderer.RenderStandings(&buf, standingsTable(lang, st, rows)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// standingsTable is the standings rows of st as an image shows them in
// lang: the numbers as lang writes them (Sonneborn–Berger 4,25 in French)
// and the medals of the podium.
func standingsTable(lang i18n.Lang, st *storage.Tournament, rows []tournament.Standing) draw.Standings {
	key, args := standingsTitle(st, "tournament.standings_caption")
	table := draw.Standings{
		Title:   standingsName(lang, st),
		Caption: lang.T(key, args...),
		Columns: [5]string{lang.T("tournament.col_player"), lang.T("tournament.col_points"), "BH-1", "BH", "SB"},
	}
	medals := map[string]int{}
	for _, p := range tournament.Podium(rows) {
		medals[p.Player] = p.Place
	}
	for _, s := range rows {
		name := st.Names[s.Player]
		if name == "" {
			name = s.Player
		}
		table.Rows = append(table.Rows, draw.StandingsRow{Rank: s.Rank, Medal: medals[s.Player], Name: name, Points: s.Points.String(),
			Cut: s.BuchholzCut1.String(), Buchholz: s.Buchholz.String(), SB: lang.Decimal(s.SonnebornBerger, 2), Withdrawn: s.Withdrawn})
	}
	return table
}

// podium says who won st, in lang: a medal for each place of the podium
// (tournament.Podium: players tied share one, withdrawn players get
// none).
func podium(lang i18n.Lang, st *storage.Tournament, rows []tournament.Standing) string {
	medals := map[int]string{1: "🥇", 2: "🥈", 3: "🥉"}
	var parts []string
	for _, p := range tournament.Podium(rows) {
		parts = append(parts, medals[p.Place]+" <@"+p.Player+">")
	}
	return lang.T("tournament.podium", "Name", escape(st.Settings().Name), "Podium", strings.Join(parts, "  "))
}

// postStandings posts the standings of st in its channel: the final ones
// with the podium, pinging the players on it.
func (tp *tournamentPosts) postStandings(ctx context.Context, st *storage.Tournament) error {
	m, err := tp.standingsMessage(ctx, tp.langs.guildLang(ctx, st.GuildID), st)
	if err != nil {
		return err
	}
	if isFinished(st) {
		for _, p := range tournament.Podium(st.Standings()) {
			m.mentions = append(m.mentions, p.Player)
		}
	}
	_, err = tp.notices.post(ctx, nil, st.ChannelID, m)
	return err
}

package bot

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/tournament"
	"github.com/kulami/kulami/storage"
)

// tournaments handles the group /kulami tournament and the Join, Leave and
// withdrawal buttons of a tournament's announcement. The rounds, which
// run without anyone asking, are the scheduler's (rounds). It is safe for
// concurrent use.
type tournaments struct {
	store   TournamentStore
	members interface { // their ratings, and who may organise
		LadderStore
		SettingsStore
	}
	clock  Clock
	log    *slog.Logger
	out    *outbound
	langs  *locales
	wake   wakeup
	post   *tournamentPosts
	rounds *rounds // tells the games of a cancelled tournament
}

// errTournamentGone refuses a button of a tournament that is not stored
// (or not of the interaction's channel).
var errTournamentGone = refuse("tournament.gone")

// command dispatches /kulami tournament <sub>: the one option of the group
// is the subcommand, whose options are its own.
func (tm *tournaments) command(c *interaction, o options) error {
	switch name, sub := groupCommand(o); name {
	case "create":
		return tm.create(c, sub)
	case "join":
		return tm.joinCommand(c, sub)
	case "leave":
		return tm.leaveCommand(c, sub)
	case "start":
		return tm.startCommand(c, sub)
	case "pairings":
		return tm.pairings(c, sub)
	case "standings":
		return tm.standings(c, sub)
	case "list":
		return tm.list(c)
	case "cancel":
		return tm.cancel(c, sub)
	}
	return refuse("error.unknown_command")
}

// mayOrganise refuses a member who may not create tournaments: without
// Manage Server (or Administrator) and without the guild's tournament
// role.
func (tm *tournaments) mayOrganise(c *interaction) error {
	m := c.i.Member
	if m != nil && m.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) != 0 {
		return nil
	}
	s, err := tm.members.GuildSettings(c.ctx, c.i.GuildID)
	if err != nil {
		return err
	}
	if s.TournamentRole == "" {
		return refuse("tournament.needs_manage_server")
	}
	if m != nil && slices.Contains(m.Roles, s.TournamentRole) {
		return nil
	}
	return refuse("tournament.needs_role", "Role", "<@&"+s.TournamentRole+">")
}

// create handles /kulami tournament create: it checks every option, stores
// the tournament, posts its announcement and, where the bot may, creates
// a scheduled event for its start.
func (tm *tournaments) create(c *interaction, o options) error {
	if err := tm.mayOrganise(c); err != nil {
		return err
	}
	now := tm.clock.Now()
	start, err := parseStart(o.str("start"), now)
	if err != nil {
		return refuse("tournament.pick_start", "Start", escape(truncate(o.str("start"), 40)))
	}
	set := tournament.Settings{
		Name: strings.TrimSpace(o.str("name")), Rounds: o.int("rounds", 5), DaysPerRound: o.int("days_per_round", 7),
		Duplicate: o.str("duplicate") == "on", MaxPlayers: o.int("max_players", 0), Start: start,
		Layout: o.str("layout"), Rules: o.str("rules"),
	}
	if !slices.Contains([]string{"", "square", "random", "irregular"}, set.Layout) {
		return refuse("challenge.pick_layout")
	}
	if set.Rules != "" {
		if _, err := engine.ParseRules(set.Rules); err != nil {
			return refuse("challenge.pick_rules")
		}
	}
	if v := o.str("move_time"); v != "" {
		if set.MoveTime, err = parseMoveTime(v); err != nil {
			return refuse("settings.pick_move_time")
		}
	}
	tn, err := tournament.New(set, c.user().ID, now)
	if err != nil {
		return tournamentRefusal(err, set.Name, 0)
	}
	st := &storage.Tournament{GuildID: c.i.GuildID, ChannelID: c.i.ChannelID, Changed: now, Tournament: tn}
	if err := tm.store.CreateTournament(c.ctx, st); err != nil {
		return err
	}
	lang := tm.langs.publicLang(c)
	if err := c.reply(message{content: lang.T("tournament.created", "Name", escape(set.Name), "ID", st.ID)}); err != nil {
		return err
	}
	tm.post.announce(c.ctx, st, tm.post.scheduleEvent(c.ctx, lang, st, c.i.AppPermissions))
	tm.wake.poke()
	return nil
}

// pick returns the tournament an option "tournament" names, or else the
// newest of the guild that want accepts; refusal is the answer when there
// is none.
func (tm *tournaments) pick(c *interaction, o options, want func(*storage.Tournament) bool, refusal error) (*storage.Tournament, error) {
	if id := o.int("tournament", 0); id > 0 {
		st, err := tm.store.Tournament(c.ctx, c.i.GuildID, uint64(id))
		if errors.Is(err, storage.ErrNotFound) {
			return nil, refuse("tournament.no_such", "ID", id)
		}
		return st, err
	}
	all, err := tm.store.GuildTournaments(c.ctx, c.i.GuildID)
	if err != nil {
		return nil, err
	}
	for _, st := range all {
		if want(st) {
			return st, nil
		}
	}
	return nil, refusal
}

// taking reports whether a tournament takes players: before its start, or
// while late joins are open.
func taking(st *storage.Tournament) bool {
	phase, _ := st.State()
	return phase != tournament.Finished && phase != tournament.Cancelled
}

// anyTournament accepts every tournament: a cancelled one's pairings and standings
// stay viewable.
func anyTournament(*storage.Tournament) bool { return true }

// joinCommand handles /kulami tournament join.
func (tm *tournaments) joinCommand(c *interaction, o options) error {
	st, err := tm.pick(c, o, taking, refuse("tournament.none_open"))
	if err != nil {
		return err
	}
	return tm.join(c, st)
}

// button runs h on the tournament a button names, if it is stored.
func (tm *tournaments) button(h func(*interaction, *storage.Tournament) error) componentHandler {
	return func(c *interaction, id customID) error {
		st, err := tm.store.Tournament(c.ctx, c.i.GuildID, id.id)
		if errors.Is(err, storage.ErrNotFound) || (err == nil && st.ChannelID != id.channel) {
			return errTournamentGone
		} else if err != nil {
			return err
		}
		return h(c, st)
	}
}

// join adds the interaction's user to st, rated by their rating on the
// guild's ladder.
func (tm *tournaments) join(c *interaction, st *storage.Tournament) error {
	user := c.user().ID
	rating := 1500
	if p, err := tm.members.Profile(c.ctx, c.i.GuildID, user, storage.Human); err == nil {
		rating = int(p.Rating.Rating + 0.5)
	} else if !errors.Is(err, storage.ErrNotFound) {
		return err
	}
	name := c.displayName()
	return tm.change(c, st, func(t *storage.Tournament, now time.Time) error {
		if err := t.Join(user, rating, now); err != nil {
			return err
		}
		if t.Names == nil {
			t.Names = map[string]string{}
		}
		t.Names[user] = name
		return nil
	}, func(st *storage.Tournament) error { // a tournament that starts when full may be due now
		return c.say(c.lang().T("tournament.joined", "Name", escape(st.Settings().Name)))
	})
}

// change changes st as fn says at the time now, in one transaction (a
// refusal of the tournament's rules is worded for the user), pokes the
// scheduler, answers with answer and refreshes the announcement.
func (tm *tournaments) change(c *interaction, st *storage.Tournament, fn func(t *storage.Tournament, now time.Time) error, answer func(*storage.Tournament) error) error {
	now := tm.clock.Now()
	st, err := tm.store.UpdateTournament(c.ctx, st.GuildID, st.ID, now, func(t *storage.Tournament) error {
		return tournamentRefusal(fn(t, now), t.Settings().Name, t.Active())
	})
	if err != nil {
		return err
	}
	tm.wake.poke()
	if err := answer(st); err != nil {
		return err
	}
	tm.post.refresh(c.ctx, st)
	return nil
}

// leaveCommand handles /kulami tournament leave.
func (tm *tournaments) leaveCommand(c *interaction, o options) error {
	user := c.user().ID
	st, err := tm.pick(c, o, func(st *storage.Tournament) bool { return taking(st) && joined(st, user) }, refuse("tournament.none_joined"))
	if err != nil {
		return err
	}
	return tm.leave(c, st)
}

// joined reports whether user plays in st and has not withdrawn.
func joined(st *storage.Tournament, user string) bool {
	for _, p := range st.Players() {
		if p.ID == user && !p.Withdrawn {
			return true
		}
	}
	return false
}

// leave takes the user out of a tournament that has not started; after
// its start, leaving is a withdrawal, which the user confirms first.
func (tm *tournaments) leave(c *interaction, st *storage.Tournament) error {
	user, name := c.user().ID, st.Settings().Name
	if phase, _ := st.State(); phase == tournament.Playing || phase == tournament.Between {
		if !joined(st, user) {
			return tournamentRefusal(tournament.ErrNotJoined, name, 0)
		}
		lang := c.lang()
		id := func(a string) string { return customID{action: a, channel: c.i.ChannelID, id: st.ID}.String() }
		return c.reply(message{ephemeral: true, content: lang.T("tournament.confirm_withdraw", "Name", escape(name)),
			components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: lang.T("button.withdraw_yes"), Style: discordgo.DangerButton, CustomID: id(actTWithdraw)},
				discordgo.Button{Label: lang.T("button.withdraw_no"), Style: discordgo.SecondaryButton, CustomID: id(actTStay)},
			}}}})
	}
	return tm.change(c, st, func(t *storage.Tournament, _ time.Time) error { return t.Leave(user) },
		func(*storage.Tournament) error { return c.say(c.lang().T("tournament.left", "Name", escape(name))) })
}

// withdraw confirms a withdrawal from a tournament that has started.
func (tm *tournaments) withdraw(c *interaction, st *storage.Tournament) error {
	user, name := c.user().ID, st.Settings().Name
	return tm.change(c, st, func(t *storage.Tournament, _ time.Time) error { return t.Withdraw(user) }, func(*storage.Tournament) error {
		return c.update(message{content: c.lang().T("tournament.withdrawn_you", "Name", escape(name))})
	})
}

// stay keeps the user in the tournament: the withdrawal is not confirmed.
func (tm *tournaments) stay(c *interaction, st *storage.Tournament) error {
	return c.update(message{content: c.lang().T("tournament.stay", "Name", escape(st.Settings().Name))})
}

// organiser refuses anyone but the organiser of st and members with
// Manage Server.
func organiser(c *interaction, st *storage.Tournament) error {
	if c.user().ID == st.Organiser() {
		return nil
	}
	if m := c.i.Member; m != nil && m.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) != 0 {
		return nil
	}
	return refuse("tournament.not_organiser", "Name", escape(st.Settings().Name))
}

// inRegistration reports whether st takes players before its start.
func inRegistration(st *storage.Tournament) bool {
	phase, _ := st.State()
	return phase == tournament.Registration
}

// startCommand handles /kulami tournament start: the organiser starts the
// tournament early. Round 1 is paired at once; the scheduler opens its
// games.
func (tm *tournaments) startCommand(c *interaction, o options) error {
	return tm.organise(c, o, inRegistration, refuse("tournament.none_open"), (*storage.Tournament).Start, func(st *storage.Tournament) error {
		return c.say(c.lang().T("tournament.starting", "Name", escape(st.Settings().Name)))
	})
}

// cancel handles /kulami tournament cancel, for the organiser: the
// tournament is called off, and its games in progress go on as casual
// games (storage's CancelTournament, in one transaction). The cancel is
// announced in the tournament's channel (the answer, when asked there),
// pinging every player with a game in progress; each of those games is
// told too, and its board is due for an edit (editBoards) in the cancel's
// commit: it named the round's deadline.
func (tm *tournaments) cancel(c *interaction, o options) error {
	st, err := tm.pick(c, o, taking, refuse("tournament.none"))
	if err != nil {
		return err
	}
	if err := organiser(c, st); err != nil {
		return err
	}
	name, now := st.Settings().Name, tm.clock.Now()
	st, games, err := tm.store.CancelTournament(c.ctx, st.GuildID, st.ID, now, func(released []*storage.Game) {
		editBoards(released, now) // their boards named the round's deadline
	})
	if err != nil {
		return tournamentRefusal(err, name, 0)
	}
	tm.wake.poke()
	tm.post.dropEvent(c.ctx, st)
	m := cancelPost(tm.langs.guildLang(c.ctx, st.GuildID), st, games)
	if c.i.ChannelID == st.ChannelID {
		err = c.reply(tm.rounds.table.notices.answer(c, nil, m))
	} else {
		if _, err := tm.rounds.table.notices.post(c.ctx, nil, st.ChannelID, m); err != nil {
			return err
		}
		err = c.say(c.lang().T("tournament.cancelled_there", "Name", escape(name), "Channel", "<#"+st.ChannelID+">"))
	}
	tm.post.refresh(c.ctx, st)
	tm.rounds.released(c.ctx, st, games)
	return err
}

// cancelPost is the announcement, in lang, that st is cancelled, which
// pings the players of its games that go on as casual games.
func cancelPost(lang i18n.Lang, st *storage.Tournament, games []*storage.Game) message {
	m := message{content: "🏆 " + lang.T("tournament.cancelled", "Name", escape(st.Settings().Name))}
	seen := map[string]bool{}
	var players []string
	for _, g := range games {
		for _, p := range g.Players() {
			if !seen[p.UserID] {
				seen[p.UserID] = true
				players = append(players, p.UserID)
				m.mentions = append(m.mentions, p.UserID)
			}
		}
	}
	if len(players) > 0 {
		for i, id := range players {
			players[i] = "<@" + id + ">"
		}
		m.content += "\n" + lang.T("tournament.cancelled_games", "Players", strings.Join(players, ", "))
	}
	m.content = truncate(m.content, 2000)
	return m
}

// organise makes the change fn, with its answer, to the tournament the
// options name (or the newest that want accepts), for its organiser.
func (tm *tournaments) organise(c *interaction, o options, want func(*storage.Tournament) bool, refusal error,
	fn func(t *storage.Tournament, now time.Time) error, answer func(*storage.Tournament) error) error {
	st, err := tm.pick(c, o, want, refusal)
	if err != nil {
		return err
	}
	if err := organiser(c, st); err != nil {
		return err
	}
	return tm.change(c, st, fn, answer)
}

// pairings handles /kulami tournament pairings [round]: the pairings and
// results of a round, the current one by default.
func (tm *tournaments) pairings(c *interaction, o options) error {
	st, err := tm.pick(c, o, anyTournament, refuse("tournament.none"))
	if err != nil {
		return err
	}
	rounds := st.Rounds()
	if len(rounds) == 0 {
		return tournamentRefusal(tournament.ErrNotStarted, st.Settings().Name, 0)
	}
	n := o.int("round", len(rounds))
	if n < 1 || n > len(rounds) {
		return refuse("tournament.no_round", "Round", n, "Name", escape(st.Settings().Name), "Rounds", len(rounds))
	}
	lang := c.lang()
	return c.reply(message{content: truncate(pairingsText(lang, st, rounds[n-1]), 2000)})
}

// standings handles /kulami tournament standings: the standings as an
// image and as text, of the newest tournament (a finished one's are kept,
// and a cancelled one's, titled so) or of the one named.
func (tm *tournaments) standings(c *interaction, o options) error {
	st, err := tm.pick(c, o, anyTournament, refuse("tournament.none"))
	if err != nil {
		return err
	}
	m, err := tm.post.standingsMessage(c.ctx, c.lang(), st)
	if err != nil {
		return err
	}
	return c.reply(m)
}

// list handles /kulami tournament list.
func (tm *tournaments) list(c *interaction) error {
	all, err := tm.store.GuildTournaments(c.ctx, c.i.GuildID)
	if err != nil {
		return err
	}
	lang := c.lang()
	if len(all) == 0 {
		return refuse("tournament.none")
	}
	lines := []string{lang.T("tournament.list_title")}
	for _, st := range all[:min(len(all), 15)] {
		lines = append(lines, lang.T("tournament.list_line", "ID", st.ID, "Name", escape(st.Settings().Name), "State", phaseText(lang, st)))
	}
	return c.reply(message{content: strings.Join(lines, "\n"), ephemeral: true})
}

// tournamentRefusals words the refusals of engine/tournament.
var tournamentRefusals = sentinelWords{
	{tournament.ErrName, "tournament.err_name"},
	{tournament.ErrNameMention, "tournament.err_name_mention"},
	{tournament.ErrRounds, "tournament.err_rounds"},
	{tournament.ErrDaysPerRound, "tournament.err_days"},
	{tournament.ErrMaxPlayers, "tournament.err_max_players"},
	{tournament.ErrStartTime, "tournament.err_start"},
	{tournament.ErrAlreadyJoined, "tournament.err_already_joined"},
	{tournament.ErrFull, "tournament.err_full"},
	{tournament.ErrFinished, "tournament.err_finished"},
	{tournament.ErrCancelled, "tournament.err_cancelled"},
	{tournament.ErrLateJoinClosed, "tournament.err_late"},
	{tournament.ErrRejoinClosed, "tournament.err_rejoin"},
	{tournament.ErrStarted, "tournament.err_started"},
	{tournament.ErrNotStarted, "tournament.err_not_started"},
	{tournament.ErrNotJoined, "tournament.err_not_joined"},
	{tournament.ErrWithdrawn, "tournament.err_withdrawn"},
	{tournament.ErrTooFewPlayers, "tournament.err_too_few"},
}

// tournamentRefusal returns the refusal that words err, a sentinel of
// engine/tournament, for the tournament name with players active players;
// other errors (and nil) are returned as they are.
func tournamentRefusal(err error, name string, players int) error {
	var re *tournament.RoundsError
	if errors.As(err, &re) {
		return refuse("tournament.err_too_many_rounds", "Max", re.Max, "Rounds", re.Rounds)
	}
	return tournamentRefusals.refusal(err, "Name", escape(name), "Count", players)
}

// parseStart reads the start option: "when full" (or nothing: the zero
// time), a delay ("3d", "12h", "90m", "in 2d"), a Discord timestamp
// ("<t:1767225600:f>"), or a date and time in UTC ("2026-12-01 18:00",
// RFC 3339, or a date alone, at midnight).
func parseStart(s string, now time.Time) (time.Time, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch s {
	case "", "when full", "when_full", "full":
		return time.Time{}, nil
	}
	if rest, ok := strings.CutPrefix(s, "<t:"); ok {
		rest = strings.TrimSuffix(rest, ">")
		secs, _, _ := strings.Cut(rest, ":")
		var n int64
		if _, err := fmt.Sscanf(secs, "%d", &n); err == nil && fmt.Sprint(n) == secs {
			return time.Unix(n, 0).UTC(), nil
		}
		return time.Time{}, errBadStart
	}
	if d, ok := parseDelay(strings.TrimSpace(strings.TrimPrefix(s, "in "))); ok {
		return now.Add(d), nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02 15:04", "2006-01-02t15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, strings.ToUpper(s)); err == nil {
			return t.UTC(), nil
		}
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, errBadStart
}

// errBadStart: the start option cannot be read.
var errBadStart = errors.New("unreadable start")

// parseDelay reads a delay of whole days, hours or minutes: "3d", "12h",
// "90m", at most 999 of them.
func parseDelay(s string) (time.Duration, bool) {
	units := map[byte]time.Duration{'d': 24 * time.Hour, 'h': time.Hour, 'm': time.Minute}
	if len(s) < 2 || len(s) > 4 {
		return 0, false
	}
	unit, ok := units[s[len(s)-1]]
	n := 0
	for _, r := range s[:len(s)-1] {
		if r < '0' || r > '9' {
			return 0, false
		}
		n = n*10 + int(r-'0')
	}
	return time.Duration(n) * unit, ok && n > 0
}

// phaseText says where a tournament stands, in lang.
func phaseText(lang i18n.Lang, st *storage.Tournament) string {
	phase, round := st.State()
	switch phase {
	case tournament.Registration:
		return lang.T("tournament.phase_registration", "Count", st.Active())
	case tournament.Playing, tournament.Between:
		return lang.T("tournament.phase_playing", "Round", round, "Rounds", st.Settings().Rounds)
	case tournament.Finished:
		return lang.T("tournament.phase_finished")
	}
	return lang.T("tournament.phase_cancelled")
}

package storage

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// boltBackend runs the transactions of a Store: the bbolt backend.
type boltBackend struct{ s *Store }

// begin returns an error wrapping ctx.Err() if ctx is done. bbolt cannot
// cancel a transaction once it runs, so the backend checks ctx before it
// begins one (and before and after it waits for the order lock): a
// cancelled context then reads and writes nothing, and one cancelled
// later lets the transaction run to its end.
func begin(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("begin a transaction: %w", err)
	}
	return nil
}

// View runs fn in a read-only bbolt transaction, if ctx is not done.
func (b boltBackend) View(ctx context.Context, fn func(Tx) error) error {
	if err := begin(ctx); err != nil {
		return err
	}
	return b.s.db.View(func(tx *bolt.Tx) error { return fn(&boltTx{tx: tx, boards: &b.s.boards}) })
}

// Update runs fn in a bbolt write transaction, which it shares with the
// writes that arrive together (groupCommit: one commit, one fsync, for a
// burst). Writes are serialized by bbolt; the order lock also orders them
// with NoteBoard, and the board notes that a write stores are forgotten
// once it commits. ctx is checked before the write waits and again when
// its transaction begins (see begin): a write whose ctx is done by then
// writes nothing.
func (b boltBackend) Update(ctx context.Context, fn func(Tx) error) error {
	if err := begin(ctx); err != nil {
		return err
	}
	return b.s.writes.update(b.s.db, &b.s.boards.order, func() error { return begin(ctx) }, func(tx *bolt.Tx) error {
		t := &boltTx{tx: tx, boards: &b.s.boards, applied: map[string]boardNote{}}
		if err := fn(t); err != nil {
			return err
		}
		tx.OnCommit(func() {
			for ch, n := range t.written {
				b.s.boards.written(ch, n)
			}
		})
		return nil
	})
}

// boltTx is a Tx of the bbolt backend.
type boltTx struct {
	tx      *bolt.Tx
	boards  *boardNotes
	applied map[string]boardNote // notes seen by reads of a write, by channel
	written map[string]boardNote // notes stored by this write, by channel
}

// finishedKey returns the key of a finished game in bucketFinished.
func finishedKey(guild string, id uint64) []byte { return key(nil).str(guild).u64(id) }

// historyKey returns the key of an entry of the history of player in
// bucketHistory: by time of the end, then game ID.
func historyKey(guild, player string, at time.Time, id uint64) []byte {
	return key(nil).str(guild).str(player).time(at).u64(id)
}

// ladderKey returns the prefix of the keys of a ladder of a guild in the
// season (zero: the all-time ladder), in the buckets of its profiles and
// ranks: the guild, the season if any, and the ladder.
func ladderKey(guild string, season Season, ladder Ladder) key {
	k := key(nil).str(guild)
	if season != 0 {
		k = k.u64(uint64(season))
	}
	return k.byte(byte(ladder))
}

// profileKey returns the key of a profile in bucketProfiles (or
// bucketSeasonProfiles).
func profileKey(guild string, season Season, ladder Ladder, player string) []byte {
	return ladderKey(guild, season, ladder).str(player)
}

// rankKey returns the key of p in bucketRanks (or bucketSeasonRanks): its
// ladder, then its RankKey.
func rankKey(p *Profile) []byte {
	return append(ladderKey(p.GuildID, p.Season, p.Ladder), p.RankKey()...)
}

// wakeKey returns the key of a wake in bucketWake.
func wakeKey(w Wake) []byte {
	return key(nil).time(w.At).byte(byte(w.Kind)).str(w.ChannelID)
}

// parseWakeKey is the inverse of wakeKey.
func parseWakeKey(k []byte) (Wake, error) {
	if len(k) < 11 || k[len(k)-1] != 0 || !wakeNames.valid(k[8]) || bytes.IndexByte(k[9:len(k)-1], 0) >= 0 {
		return Wake{}, fmt.Errorf("%w: bad wake key %q", ErrCorrupt, k)
	}
	return Wake{
		Kind:      WakeKind(k[8]),
		ChannelID: string(k[9 : len(k)-1]),
		At:        bitsTime(binary.BigEndian.Uint64(k[:8])),
	}, nil
}

// setWake moves the wake of a game or challenge of channel from old to
// next; a zero time is no wake.
func (t *boltTx) setWake(kind WakeKind, channel string, old, next time.Time) error {
	b := t.tx.Bucket(bucketWake)
	if !old.IsZero() {
		if err := b.Delete(wakeKey(Wake{kind, channel, old})); err != nil {
			return err
		}
	}
	if next.IsZero() {
		return nil
	}
	return b.Put(wakeKey(Wake{kind, channel, next}), []byte{})
}

// game returns the game that the stored value v holds, with the board
// note of its channel applied, and its wake.
func (t *boltTx) game(v []byte) (*Game, time.Time, error) {
	r := new(gameRecord)
	if err := decode(v, r); err != nil {
		return nil, time.Time{}, err
	}
	n := t.boards.apply(r)
	if t.applied != nil {
		t.applied[r.ChannelID] = n
	}
	g, err := r.game()
	return g, r.WakeAt, err
}

// Game implements Tx.
func (t *boltTx) Game(channel string) (*Game, time.Time, error) {
	v := t.tx.Bucket(bucketGames).Get([]byte(channel))
	if v == nil {
		return nil, time.Time{}, fmt.Errorf("game: %w", ErrNotFound)
	}
	g, wake, err := t.game(v)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("game: %w", err)
	}
	return g, wake, nil
}

// stored notes that the write stores (or deletes) the game of channel,
// and with it the board note its read applied.
func (t *boltTx) stored(channel string) {
	n, ok := t.applied[channel]
	if !ok {
		return
	}
	if t.written == nil {
		t.written = map[string]boardNote{}
	}
	t.written[channel] = n
}

// PutGame implements Tx.
func (t *boltTx) PutGame(g *Game, oldWake time.Time) error {
	r := g.record()
	if err := put(t.tx.Bucket(bucketGames), []byte(r.ChannelID), r); err != nil {
		return err
	}
	t.stored(r.ChannelID)
	if err := indexGame(t.tx, place{ID: r.ID, GuildID: r.GuildID, ChannelID: r.ChannelID, Players: r.Players}); err != nil {
		return err
	}
	return t.setWake(WakeGame, r.ChannelID, oldWake, r.WakeAt)
}

// DeleteGame implements Tx.
func (t *boltTx) DeleteGame(channel string, oldWake time.Time) error {
	b := t.tx.Bucket(bucketGames)
	if v := b.Get([]byte(channel)); v != nil {
		if err := unindexGame(t.tx, channel, v); err != nil {
			return err
		}
	}
	if err := b.Delete([]byte(channel)); err != nil {
		return err
	}
	t.stored(channel)
	return t.setWake(WakeGame, channel, oldWake, time.Time{})
}

// Games implements Tx.
func (t *boltTx) Games(fn func(g *Game, wake time.Time) error) error {
	return t.GamesAfter("", 0, fn)
}

// GamesAfter implements Tx.
func (t *boltTx) GamesAfter(after string, limit int, fn func(g *Game, wake time.Time) error) error {
	c := t.tx.Bucket(bucketGames).Cursor()
	k, v := c.Seek([]byte(after))
	if k != nil && string(k) == after {
		k, v = c.Next()
	}
	for n := 0; k != nil && (limit <= 0 || n < limit); k, v = c.Next() {
		g, wake, err := t.game(v)
		if err != nil {
			return fmt.Errorf("game in channel %s: %w", k, err)
		}
		if err := fn(g, wake); err != nil {
			return err
		}
		n++
	}
	return nil
}

// GamesIn implements Tx.
func (t *boltTx) GamesIn(channels []string, fn func(g *Game, wake time.Time) error) error {
	sorted := slices.Sorted(slices.Values(channels))
	for _, ch := range slices.Compact(sorted) {
		g, wake, err := t.Game(ch)
		if isNotFound(err) {
			continue
		} else if err != nil {
			return err
		}
		if err := fn(g, wake); err != nil {
			return err
		}
	}
	return nil
}

// PlayerGames implements Tx: the user's entries of bucketPlayerGames,
// in channel order, and the games of their channels.
func (t *boltTx) PlayerGames(user string, fn func(g *Game, wake time.Time) error) error {
	entries, err := t.playerEntries(user)
	if err != nil {
		return err
	}
	for _, e := range entries {
		g, wake, err := t.Game(string(e.channel))
		if err != nil {
			return fmt.Errorf("game of channel %s: %w", e.channel, err)
		}
		if err := fn(g, wake); err != nil {
			return err
		}
	}
	return nil
}

// NewestPlayerGames implements Tx: the user's entries of
// bucketPlayerGames counted and sorted by ID without decoding a game,
// and the games of the limit newest read.
func (t *boltTx) NewestPlayerGames(user string, limit int) ([]*Game, int, error) {
	entries, err := t.playerEntries(user)
	if err != nil {
		return nil, 0, err
	}
	slices.SortFunc(entries, func(a, b playerEntry) int { return cmp.Compare(b.id, a.id) })
	out := make([]*Game, 0, min(limit, len(entries)))
	for _, e := range entries[:min(limit, len(entries))] {
		g, _, err := t.Game(string(e.channel))
		if err != nil {
			return nil, 0, fmt.Errorf("game of channel %s: %w", e.channel, err)
		}
		out = append(out, g)
	}
	return out, len(entries), nil
}

// playerEntry is an entry of bucketPlayerGames: a channel and the ID of
// its active game.
type playerEntry struct {
	id      uint64
	channel []byte // valid for the life of the transaction
}

// playerEntries returns the user's entries of bucketPlayerGames, in
// channel order.
func (t *boltTx) playerEntries(user string) ([]playerEntry, error) {
	var out []playerEntry
	prefix := key(nil).str(user)
	c := t.tx.Bucket(bucketPlayerGames).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		channel := k[len(prefix) : len(k)-1]
		if len(v) != 8 {
			return nil, fmt.Errorf("%w: the entry of channel %s under user %s is %d bytes", ErrCorrupt, channel, user, len(v))
		}
		out = append(out, playerEntry{binary.BigEndian.Uint64(v), channel})
	}
	return out, nil
}

// GuildGames implements Tx: the guild's first limit entries of
// bucketGuildGames, newest first, and its count in
// bucketGuildGameCounts.
func (t *boltTx) GuildGames(guild string, limit int) ([]*Game, int, error) {
	var out []*Game
	prefix := key(nil).str(guild)
	c := t.tx.Bucket(bucketGuildGames).Cursor()
	for k, v := lastBefore(c, prefix.end()); k != nil && bytes.HasPrefix(k, prefix) && len(out) < limit; k, v = c.Prev() {
		g, _, err := t.Game(string(v))
		if err != nil {
			return nil, 0, err
		}
		out = append(out, g)
	}
	return out, guildGameCount(t.tx, guild), nil
}

// Recomputable implements Tx: bbolt has no commit that skips the disk
// wait for one transaction alone, so it commits as every other.
func (t *boltTx) Recomputable() {}

// CountGames implements Tx: the keys of the bucket of active games,
// counted on its pages without decoding a game.
func (t *boltTx) CountGames() (int, error) {
	return t.tx.Bucket(bucketGames).Stats().KeyN, nil
}

// sequenceBuckets are the buckets whose sequences give IDs.
var sequenceBuckets = [...][]byte{GameIDs: bucketGames, ChallengeIDs: bucketChallenges, TournamentIDs: bucketTournaments}

// NextID implements Tx.
func (t *boltTx) NextID(seq Sequence) (uint64, error) {
	return t.tx.Bucket(sequenceBuckets[seq]).NextSequence()
}

// SetSequence implements Tx.
func (t *boltTx) SetSequence(seq Sequence, v uint64) error {
	if !sequenceNames.valid(uint8(seq)) {
		return fmt.Errorf("%w: unknown sequence %v", ErrInvalid, seq)
	}
	return t.tx.Bucket(sequenceBuckets[seq]).SetSequence(v)
}

// Challenge implements Tx.
func (t *boltTx) Challenge(channel string) (*Challenge, error) {
	return get[Challenge](t.tx.Bucket(bucketChallenges), []byte(channel), "challenge")
}

// PutChallenge implements Tx.
func (t *boltTx) PutChallenge(c *Challenge, oldWake time.Time) error {
	if err := put(t.tx.Bucket(bucketChallenges), []byte(c.ChannelID), c); err != nil {
		return err
	}
	return t.setWake(WakeChallenge, c.ChannelID, oldWake, c.Wake())
}

// DeleteChallenge implements Tx.
func (t *boltTx) DeleteChallenge(channel string, oldWake time.Time) error {
	if err := t.tx.Bucket(bucketChallenges).Delete([]byte(channel)); err != nil {
		return err
	}
	return t.setWake(WakeChallenge, channel, oldWake, time.Time{})
}

// Finished implements Tx.
func (t *boltTx) Finished(guild string, id uint64) (*FinishedGame, error) {
	v := t.tx.Bucket(bucketFinished).Get(finishedKey(guild, id))
	if v == nil {
		return nil, fmt.Errorf("finished game %d: %w", id, ErrNotFound)
	}
	f, err := DecodeFinished(v)
	if err != nil {
		return nil, fmt.Errorf("finished game %d: %w", id, err)
	}
	return f, nil
}

// HasFinished implements Tx.
func (t *boltTx) HasFinished(guild string, id uint64) (bool, error) {
	return t.tx.Bucket(bucketFinished).Get(finishedKey(guild, id)) != nil, nil
}

// PutFinished implements Tx.
func (t *boltTx) PutFinished(f *FinishedGame) error {
	if err := put(appendBucket(t.tx, bucketFinished), finishedKey(f.GuildID, f.ID), f.stored()); err != nil {
		return err
	}
	return indexFinished(t.tx, place{ID: f.ID, GuildID: f.GuildID, ChannelID: f.ChannelID})
}

// IndexFinal implements Tx.
func (t *boltTx) IndexFinal(guild string, id uint64, old, next time.Time) error {
	return t.setWake(WakeFinal, FinishedWake(guild, id), old, next)
}

// FinishedData implements Tx.
func (t *boltTx) FinishedData(fn func([]byte) error) error {
	return t.tx.Bucket(bucketFinished).ForEach(func(_, v []byte) error { return fn(v) })
}

// LastFinished implements Tx: the game that bucketLastFinished names.
func (t *boltTx) LastFinished(guild, channel string) (*FinishedGame, error) {
	v := t.tx.Bucket(bucketLastFinished).Get(lastFinishedKey(guild, channel))
	if len(v) != 8 {
		return nil, fmt.Errorf("no finished game in channel %s: %w", channel, ErrNotFound)
	}
	return t.Finished(guild, binary.BigEndian.Uint64(v))
}

// historyOwner returns the guild and the player of the key of a history
// entry (historyKey).
func historyOwner(k []byte) (guild, player string) {
	g, rest, _ := bytes.Cut(k, []byte{0})
	p, _, _ := bytes.Cut(rest, []byte{0})
	return string(g), string(p)
}

// PutHistory implements Tx.
func (t *boltTx) PutHistory(guild, player string, e *HistoryEntry) error {
	b, k := appendBucket(t.tx, bucketHistory), historyKey(guild, player, e.At, e.GameID)
	if v := b.Get(k); v != nil { // replaced: its old outcome no longer counts
		old := new(HistoryEntry)
		if err := decode(v, old); err != nil {
			return fmt.Errorf("history entry %q: %w", k, err)
		}
		if err := countHistory(t.tx, guild, player, old, -1); err != nil {
			return err
		}
	}
	if err := put(b, k, e); err != nil {
		return err
	}
	return countHistory(t.tx, guild, player, e, 1)
}

// HeadToHead implements Tx.
func (t *boltTx) HeadToHead(guild, player, opponent string) (Tally, error) {
	var tally Tally
	if v := t.tx.Bucket(bucketHeadToHead).Get(headToHeadKey(guild, player, opponent)); v != nil {
		if err := decode(v, &tally); err != nil {
			return Tally{}, fmt.Errorf("head-to-head of %s and %s: %w", player, opponent, err)
		}
	}
	return tally, nil
}

// History implements Tx.
func (t *boltTx) History(guild, player string, before uint64, fn func(*HistoryEntry) bool) error {
	prefix := key(nil).str(guild).str(player)
	from := prefix.end()
	if before != 0 {
		// Only the end time is needed: read it without replaying the game.
		f, err := get[struct {
			Result struct {
				At time.Time `json:"at"`
			} `json:"result"`
		}](t.tx.Bucket(bucketFinished), finishedKey(guild, before), fmt.Sprintf("finished game %d", before))
		if err != nil {
			return err
		}
		from = historyKey(guild, player, f.Result.At, before)
	}
	c := t.tx.Bucket(bucketHistory).Cursor()
	for k, v := lastBefore(c, from); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Prev() {
		e := new(HistoryEntry)
		if err := decode(v, e); err != nil {
			return fmt.Errorf("history entry %q: %w", k, err)
		}
		if !fn(e) {
			return nil
		}
	}
	return nil
}

// ladderBuckets returns the buckets of the profiles and ranks of the
// season (zero: the all-time ladders).
func (t *boltTx) ladderBuckets(season Season) (profiles, ranks *bolt.Bucket) {
	if season != 0 {
		return t.tx.Bucket(bucketSeasonProfiles), t.tx.Bucket(bucketSeasonRanks)
	}
	return t.tx.Bucket(bucketProfiles), t.tx.Bucket(bucketRanks)
}

// profile returns a profile of the season (zero: all-time).
func (t *boltTx) profile(guild string, season Season, ladder Ladder, player string) (*Profile, error) {
	profiles, _ := t.ladderBuckets(season)
	return get[Profile](profiles, profileKey(guild, season, ladder, player), "profile of "+player)
}

// Profile implements Tx.
func (t *boltTx) Profile(guild string, ladder Ladder, player string) (*Profile, error) {
	return t.profile(guild, 0, ladder, player)
}

// SeasonProfile implements Tx.
func (t *boltTx) SeasonProfile(guild string, season Season, ladder Ladder, player string) (*Profile, error) {
	return t.profile(guild, season, ladder, player)
}

// PutProfile implements Tx.
func (t *boltTx) PutProfile(p, old *Profile) error {
	if p.Season != 0 {
		return fmt.Errorf("%w: a profile of the season %v on the all-time ladder", ErrInvalid, p.Season)
	}
	return t.putProfile(p, old)
}

// PutSeasonProfile implements Tx.
func (t *boltTx) PutSeasonProfile(p, old *Profile) error {
	if !p.Season.Valid() {
		return fmt.Errorf("%w: a season profile without a season", ErrInvalid)
	}
	return t.putProfile(p, old)
}

// putProfile stores p, whose stored version is old, on its ladder.
func (t *boltTx) putProfile(p, old *Profile) error {
	profiles, ranks := t.ladderBuckets(p.Season)
	if old != nil {
		if err := ranks.Delete(rankKey(old)); err != nil {
			return err
		}
	}
	if err := ranks.Put(rankKey(p), []byte(p.UserID)); err != nil {
		return err
	}
	if err := moveBand(t.tx, p, old); err != nil {
		return err
	}
	k := profileKey(p.GuildID, p.Season, p.Ladder, p.UserID)
	if profiles.Get(k) == nil { // the ladders' sizes are kept
		if err := countProfile(t.tx, ladderKey(p.GuildID, p.Season, p.Ladder)); err != nil {
			return err
		}
	}
	return put(profiles, k, p)
}

// Leaderboard implements Tx.
func (t *boltTx) Leaderboard(guild string, ladder Ladder, offset, limit int) ([]Profile, int, error) {
	return t.leaderboard(guild, 0, ladder, offset, limit)
}

// SeasonLeaderboard implements Tx.
func (t *boltTx) SeasonLeaderboard(guild string, season Season, ladder Ladder, offset, limit int) ([]Profile, int, error) {
	return t.leaderboard(guild, season, ladder, offset, limit)
}

// leaderboard is Leaderboard on a ladder of the season (zero: all-time):
// the page from the ranks, from the band of the rank at offset (bandStart)
// on, skipping the ranks of the band before it.
func (t *boltTx) leaderboard(guild string, season Season, ladder Ladder, offset, limit int) ([]Profile, int, error) {
	prefix := ladderKey(guild, season, ladder)
	var ids []string
	_, ranks := t.ladderBuckets(season)
	start, skip := bandStart(bandsBucket(t.tx, season), prefix, offset)
	if start == nil {
		return t.ladderPage(guild, season, ladder, nil) // past the end
	}
	c := ranks.Cursor()
	k, v := c.Seek(start)
	for i := 0; i < skip && k != nil && bytes.HasPrefix(k, prefix); i++ {
		k, v = c.Next()
	}
	for ; k != nil && bytes.HasPrefix(k, prefix) && len(ids) < limit; k, v = c.Next() {
		ids = append(ids, string(v))
	}
	return t.ladderPage(guild, season, ladder, ids)
}

// LeaderboardFrom implements Tx: the ranks after (or before) the mark's,
// read from its key on.
func (t *boltTx) LeaderboardFrom(guild string, season Season, ladder Ladder, from Mark, before bool, limit int) ([]Profile, int, error) {
	p, err := t.profile(guild, season, ladder, from.Player)
	if err != nil {
		return nil, 0, err
	}
	prefix := ladderKey(guild, season, ladder)
	mark := append(prefix[:len(prefix):len(prefix)], from.RankKey(p)...)
	_, ranks := t.ladderBuckets(season)
	c := ranks.Cursor()
	var ids []string
	if before {
		for k, v := lastBefore(c, mark); k != nil && bytes.HasPrefix(k, prefix) && len(ids) < limit; k, v = c.Prev() {
			ids = append(ids, string(v))
		}
		slices.Reverse(ids)
	} else {
		k, v := c.Seek(mark)
		if bytes.Equal(k, mark) {
			k, v = c.Next()
		}
		for ; k != nil && bytes.HasPrefix(k, prefix) && len(ids) < limit; k, v = c.Next() {
			ids = append(ids, string(v))
		}
	}
	return t.ladderPage(guild, season, ladder, ids)
}

// ladderPage returns the profiles of ids on a ladder of the season (zero:
// all-time) and the size of the ladder, which is kept (ladderSize).
func (t *boltTx) ladderPage(guild string, season Season, ladder Ladder, ids []string) ([]Profile, int, error) {
	total := int(ladderSize(t.tx, ladderKey(guild, season, ladder)))
	var page []Profile
	for _, id := range ids {
		p, err := t.profile(guild, season, ladder, id)
		if err != nil {
			return nil, 0, err
		}
		page = append(page, *p)
	}
	return page, total, nil
}

// EachGuildSettings implements Tx.
func (t *boltTx) EachGuildSettings(fn func(*GuildSettingsEntry) error) error {
	return t.tx.Bucket(bucketGuilds).ForEach(func(k, v []byte) error {
		r := &GuildSettingsEntry{GuildID: string(k)}
		if err := decode(v, &r.Settings); err != nil {
			return fmt.Errorf("settings of guild %s: %w", k, err)
		}
		return fn(r)
	})
}

// GuildSettings implements Tx.
func (t *boltTx) GuildSettings(guild string) (*GuildSettings, error) {
	return get[GuildSettings](t.tx.Bucket(bucketGuilds), []byte(guild), "settings")
}

// PutGuildSettings implements Tx.
func (t *boltTx) PutGuildSettings(guild string, v *GuildSettings) error {
	return put(t.tx.Bucket(bucketGuilds), []byte(guild), v)
}

// UserSettings implements Tx.
func (t *boltTx) UserSettings(user string) (*UserSettings, error) {
	return get[UserSettings](t.tx.Bucket(bucketUsers), []byte(user), "settings")
}

// PutUserSettings implements Tx.
func (t *boltTx) PutUserSettings(user string, v *UserSettings) error {
	return put(t.tx.Bucket(bucketUsers), []byte(user), v)
}

// RoleLink implements Tx.
func (t *boltTx) RoleLink(user string) (*RoleLink, error) {
	return get[RoleLink](t.tx.Bucket(bucketRoleLinks), []byte(user), "role link")
}

// PutRoleLink implements Tx.
func (t *boltTx) PutRoleLink(l *RoleLink) error {
	return put(t.tx.Bucket(bucketRoleLinks), []byte(l.UserID), l)
}

// DeleteRoleLink implements Tx.
func (t *boltTx) DeleteRoleLink(user string) error {
	return t.tx.Bucket(bucketRoleLinks).Delete([]byte(user))
}

// vacationRecord is how a Vacation is stored in bbolt: with the wake time
// it was indexed under.
type vacationRecord struct {
	Vacation
	WakeAt time.Time `json:"wake_at,omitzero"`
}

// Vacation implements Tx.
func (t *boltTx) Vacation(user string) (*Vacation, time.Time, error) {
	r, err := get[vacationRecord](t.tx.Bucket(bucketVacations), []byte(user), "vacation")
	if err != nil {
		return nil, time.Time{}, err
	}
	return &r.Vacation, r.WakeAt, nil
}

// PutVacation implements Tx.
func (t *boltTx) PutVacation(v *Vacation, oldWake time.Time) error {
	r := &vacationRecord{Vacation: *v, WakeAt: v.Wake()}
	if err := put(t.tx.Bucket(bucketVacations), []byte(v.UserID), r); err != nil {
		return err
	}
	return t.setWake(WakeVacation, v.UserID, oldWake, r.WakeAt)
}

// OpenVacation implements Tx.
func (t *boltTx) OpenVacation(v *Vacation) error {
	if t.tx.Bucket(bucketVacations).Get([]byte(v.UserID)) != nil {
		return nil
	}
	return t.PutVacation(v, time.Time{})
}

// Review implements Tx.
func (t *boltTx) Review(guild string, id uint64) ([]byte, error) {
	r, err := get[json.RawMessage](t.tx.Bucket(bucketReviews), finishedKey(guild, id), fmt.Sprintf("review of game %d", id))
	if err != nil {
		return nil, err
	}
	return *r, nil
}

// PutReview implements Tx.
func (t *boltTx) PutReview(guild string, id uint64, data []byte) error {
	return put(t.tx.Bucket(bucketReviews), finishedKey(guild, id), json.RawMessage(data))
}

// PutPendingReview implements Tx.
func (t *boltTx) PutPendingReview(p *PendingReview) error {
	return put(t.tx.Bucket(bucketPending), finishedKey(p.GuildID, p.GameID), p)
}

// DeletePendingReview implements Tx.
func (t *boltTx) DeletePendingReview(guild string, id uint64) error {
	return t.tx.Bucket(bucketPending).Delete(finishedKey(guild, id))
}

// PendingReviews implements Tx.
func (t *boltTx) PendingReviews() ([]PendingReview, error) {
	var out []PendingReview
	err := t.tx.Bucket(bucketPending).ForEach(func(k, v []byte) error {
		var p PendingReview
		if err := decode(v, &p); err != nil {
			return fmt.Errorf("pending review %x: %w", k, err)
		}
		out = append(out, p)
		return nil
	})
	return out, err
}

// keyAlive is the key, in bucketMeta, of when the bot was last alive:
// 8 bytes, big-endian Unix nanoseconds.
var keyAlive = []byte("alive")

// Alive implements Tx.
func (t *boltTx) Alive() (time.Time, error) {
	raw := t.tx.Bucket(bucketMeta).Get(keyAlive)
	if len(raw) != 8 {
		return time.Time{}, nil
	}
	return time.Unix(0, int64(binary.BigEndian.Uint64(raw))), nil
}

// PutAlive implements Tx.
func (t *boltTx) PutAlive(at time.Time) error {
	return t.tx.Bucket(bucketMeta).Put(keyAlive, binary.BigEndian.AppendUint64(nil, uint64(at.UnixNano())))
}

// keyResuming is the key, in bucketMeta, of the resume under way.
var keyResuming = []byte("resuming")

// Resuming implements Tx.
func (t *boltTx) Resuming() (*Resuming, error) {
	r, err := get[Resuming](t.tx.Bucket(bucketMeta), keyResuming, "resume")
	if isNotFound(err) {
		return nil, nil
	}
	return r, err
}

// PutResuming implements Tx.
func (t *boltTx) PutResuming(r *Resuming) error {
	if r == nil {
		return t.tx.Bucket(bucketMeta).Delete(keyResuming)
	}
	return put(t.tx.Bucket(bucketMeta), keyResuming, r)
}

// Tournament implements Tx.
func (t *boltTx) Tournament(guild string, id uint64) (*Tournament, time.Time, error) {
	raw := t.tx.Bucket(bucketTournaments).Get(finishedKey(guild, id))
	if raw == nil {
		return nil, time.Time{}, fmt.Errorf("tournament %d: %w", id, ErrNotFound)
	}
	return DecodeTournament(raw)
}

// PutTournament implements Tx.
func (t *boltTx) PutTournament(tn *Tournament, oldWake time.Time) error {
	v, err := EncodeTournament(tn)
	if err != nil {
		return err
	}
	if err := t.tx.Bucket(bucketTournaments).Put(finishedKey(tn.GuildID, tn.ID), v); err != nil {
		return err
	}
	return t.setWake(WakeTournament, tn.Key(), oldWake, tn.Wake())
}

// GuildTournaments implements Tx.
func (t *boltTx) GuildTournaments(guild string) ([]*Tournament, error) {
	var out []*Tournament
	prefix := key(nil).str(guild)
	c := t.tx.Bucket(bucketTournaments).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		tn, _, err := DecodeTournament(v)
		if err != nil {
			return nil, err
		}
		out = append(out, tn)
	}
	slices.Reverse(out)
	return out, nil
}

// noted returns when w is due: its time, or the time a board note gives
// its game (see NoteBoard), zero if none.
func (t *boltTx) noted(w Wake) time.Time {
	if w.Kind != WakeGame {
		return w.At
	}
	if at, ok := t.boards.wakeOf(w.ChannelID, w.At); ok {
		return at
	}
	return w.At
}

// NextWake implements Tx. The wakes that board notes moved (see
// NoteBoard) are read in the index's order until the first that none
// moved, which no later one can precede.
func (t *boltTx) NextWake() (time.Time, bool, error) {
	var next time.Time
	c := t.tx.Bucket(bucketWake).Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		w, err := parseWakeKey(k)
		if err != nil {
			return time.Time{}, false, err
		}
		at := t.noted(w)
		if !at.IsZero() && (next.IsZero() || at.Before(next)) {
			next = at
		}
		if at.Equal(w.At) {
			break
		}
	}
	return next, !next.IsZero(), nil
}

// Due implements Tx. A wake that a board note moved past now (see
// NoteBoard) is not due.
func (t *boltTx) Due(now time.Time) ([]Wake, error) {
	var out []Wake
	limit := key(nil).time(now).end() // nil: now is the end of time
	c := t.tx.Bucket(bucketWake).Cursor()
	for k, _ := c.First(); k != nil && (limit == nil || bytes.Compare(k, limit) < 0); k, _ = c.Next() {
		w, err := parseWakeKey(k)
		if err != nil {
			return nil, err
		}
		if at := t.noted(w); at.IsZero() || at.After(now) {
			continue
		}
		out = append(out, w)
	}
	return out, nil
}

// Leases implements Backend. The leases of a bbolt store are kept in
// memory, not in the file: they coordinate the processes that share a
// store, and only one process opens a bbolt file, whose leases end with
// it. So a claim is no commit. fn runs in a read transaction, so that a
// closed store refuses it as it refuses every method.
func (b boltBackend) Leases(ctx context.Context, fn func(LeaseTx) error) error {
	if err := begin(ctx); err != nil {
		return err
	}
	return b.s.db.View(func(*bolt.Tx) error { return b.s.leases.update(fn) })
}

// leases are the leases of a bbolt store, by kind and channel (a Wake
// without its time). They are safe for concurrent use.
type leases struct {
	mu sync.Mutex
	m  map[Wake]Lease
}

// update runs fn with the leases locked, and keeps what fn put if it
// returns nil.
func (l *leases) update(fn func(LeaseTx) error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	t := &leaseTx{leases: l, put: map[Wake]Lease{}}
	if err := fn(t); err != nil {
		return err
	}
	if l.m == nil {
		l.m = map[Wake]Lease{}
	}
	maps.Copy(l.m, t.put)
	return nil
}

// leaseTx is a LeaseTx of the bbolt backend: the leases, locked, and
// what it put, kept when it ends without an error.
type leaseTx struct {
	leases *leases
	put    map[Wake]Lease
}

// Lease implements LeaseTx.
func (t *leaseTx) Lease(kind WakeKind, channel string) (*Lease, error) {
	k := Wake{Kind: kind, ChannelID: channel}
	l, ok := t.put[k]
	if !ok {
		l, ok = t.leases.m[k]
	}
	if !ok {
		return nil, fmt.Errorf("lease: %w", ErrNotFound)
	}
	return &l, nil
}

// PutLease implements LeaseTx.
func (t *leaseTx) PutLease(l *Lease) error {
	t.put[Wake{Kind: l.Wake.Kind, ChannelID: l.Wake.ChannelID}] = *l
	return nil
}

// Records implements Tx.
//
// Every releaseEvery records it gives back the pages of the file it read
// (release), so that an export of a large file keeps little of it mapped.
func (t *boltTx) Records(out func(Record) error) error {
	n := 0
	fn := func(r Record) error {
		if n++; n%releaseEvery == 0 {
			release(t.tx)
		}
		return out(r)
	}
	if err := t.Games(func(g *Game, _ time.Time) error { return fn(GameRecords.Record(g)) }); err != nil {
		return err
	}
	for _, each := range []struct {
		bucket []byte
		fn     func(k, v []byte) error
	}{
		{bucketChallenges, func(_, v []byte) error {
			c := new(Challenge)
			if err := decode(v, c); err != nil {
				return err
			}
			return fn(ChallengeRecords.Record(c))
		}},
		{bucketFinished, func(_, v []byte) error {
			f, err := DecodeFinished(v)
			if err != nil {
				return err
			}
			return fn(FinishedRecords.Record(f))
		}},
		{bucketHistory, func(k, v []byte) error {
			r := &HistoryRecord{}
			if err := decode(v, &r.Entry); err != nil {
				return err
			}
			r.GuildID, r.PlayerID = historyOwner(k)
			return fn(HistoryRecords.Record(r))
		}},
		{bucketProfiles, func(_, v []byte) error {
			p := new(Profile)
			if err := decode(v, p); err != nil {
				return err
			}
			return fn(ProfileRecords.Record(p))
		}},
		{bucketSeasonProfiles, func(_, v []byte) error {
			p := new(Profile)
			if err := decode(v, p); err != nil {
				return err
			}
			return fn(SeasonProfileRecords.Record(p))
		}},
		{bucketUsers, func(k, v []byte) error {
			r := &UserSettingsEntry{UserID: string(k)}
			if err := decode(v, &r.Settings); err != nil {
				return err
			}
			return fn(UserSettingsRecords.Record(r))
		}},
		{bucketRoleLinks, func(_, v []byte) error {
			l := new(RoleLink)
			if err := decode(v, l); err != nil {
				return err
			}
			return fn(RoleLinkRecords.Record(l))
		}},
		{bucketTournaments, func(_, v []byte) error {
			tn, _, err := DecodeTournament(v)
			if err != nil {
				return err
			}
			return fn(TournamentRecords.Record(tn))
		}},
		{bucketVacations, func(_, v []byte) error {
			r := new(vacationRecord)
			if err := decode(v, r); err != nil {
				return err
			}
			return fn(VacationRecords.Record(&r.Vacation))
		}},
		{bucketReviews, func(k, v []byte) error {
			guild, id, _ := bytes.Cut(k, []byte{0})
			r := &ReviewRecord{GuildID: string(guild)}
			if len(id) == 8 {
				r.GameID = binary.BigEndian.Uint64(id)
			}
			if err := decode(v, &r.Data); err != nil {
				return err
			}
			return fn(ReviewRecords.Record(r))
		}},
	} {
		if err := t.tx.Bucket(each.bucket).ForEach(each.fn); err != nil {
			return fmt.Errorf("%s: %w", each.bucket, err)
		}
	}
	if err := t.EachGuildSettings(func(r *GuildSettingsEntry) error { return fn(GuildSettingsRecords.Record(r)) }); err != nil {
		return fmt.Errorf("%s: %w", bucketGuilds, err)
	}
	if err := t.puzzleRecords(fn); err != nil {
		return err
	}
	if at, err := t.Alive(); err != nil || !at.IsZero() {
		if err != nil {
			return err
		}
		if err := fn(AliveRecords.Record(&at)); err != nil {
			return err
		}
	}
	for seq, b := range sequenceBuckets {
		if v := t.tx.Bucket(b).Sequence(); v != 0 {
			if err := fn(SequenceRecords.Record(&SequenceRecord{Name: Sequence(seq), Value: v})); err != nil {
				return err
			}
		}
	}
	return nil
}

package storage

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Mark is a place on a ladder: the rank a profile had when a page of the
// leaderboard showed it. A leaderboard's Next and Previous buttons carry
// the mark of the last or first profile shown, so that the page after or
// before it is read from the rank index (LeaderboardFrom) in O(page),
// however long the ladder, instead of skipping the ranks before it.
type Mark struct {
	Player string // the profile's ID (ProfileID)
	rating uint64 // the rating, as orderedFloat sorts it
	games  uint64 // the games played
}

// markPlayerMax is the longest profile ID a mark holds: longer than any
// Discord ID (20 digits) or computer's profile ID, and short enough for
// a mark to fit a component's custom ID.
const markPlayerMax = 24

// MarkOf returns the mark of p at its current rank.
func MarkOf(p *Profile) Mark {
	return Mark{Player: p.UserID, rating: orderedFloat(p.Rating.Rating), games: uint64(p.Games())}
}

// String writes m with the characters of unpadded URL-safe base64: none of
// them is the colon that separates the parts of a custom ID (a computer's
// profile ID holds one).
func (m Mark) String() string {
	b := binary.BigEndian.AppendUint64(nil, m.rating)
	b = binary.AppendUvarint(b, m.games)
	return base64.RawURLEncoding.EncodeToString(append(b, m.Player...))
}

// ParseMark reads a mark that Mark.String wrote: an error wrapping
// ErrInvalid if s is not one.
func ParseMark(s string) (Mark, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) < 9 {
		return Mark{}, fmt.Errorf("%w: mark %q", ErrInvalid, s)
	}
	games, n := binary.Uvarint(b[8:])
	player := string(b[8+max(n, 0):])
	if n <= 0 || player == "" || len(player) > markPlayerMax || !utf8.ValidString(player) || strings.IndexByte(player, 0) >= 0 {
		return Mark{}, fmt.Errorf("%w: mark %q", ErrInvalid, s)
	}
	return Mark{Player: player, rating: binary.BigEndian.Uint64(b), games: games}, nil
}

// RankKey returns the rank key (Profile.RankKey) that p, the profile of
// m.Player, had when m was made: its name and ID now, its rating and games
// then. A profile renamed since keeps its place among its equals by the
// new name.
func (m Mark) RankKey(p *Profile) []byte { return m.rankKey(p.Name, p.UserID) }

// PuzzleRankKey is RankKey for the puzzle profile p: the rank key
// (PuzzleProfile.RankKey) p had when m was made.
func (m Mark) PuzzleRankKey(p *PuzzleProfile) []byte { return m.rankKey(p.Name, p.UserID) }

// rankKey is the rank key of the player named name with the ID id, at
// m's rating and games.
func (m Mark) rankKey(name, id string) []byte {
	return key(nil).u64(^m.rating).u64(^m.games).str(strings.ToLower(name)).str(id)
}

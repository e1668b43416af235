package storagetest

import (
	"testing"
	"time"

	"github.com/kulami/kulami/storage"
)

// Store is the contract of a backend of kulami's storage that the suite
// checks: the methods of storage.Core, which every backend embeds and
// which document what each does and the errors it returns, and
// NoteBoard, which each backend writes its own way (see storage.Store's
// and storage/postgres's).
type Store interface {
	CreateGame(g *storage.Game) error
	Game(channelID string) (*storage.Game, error)
	UpdateGame(channelID string, fn func(*storage.Game) error) (*storage.Game, error)
	NoteBoard(channelID string, gameID uint64, ply int, messageID string) error
	GuildGames(guildID string) ([]*storage.Game, error)
	ActiveGames() (int, error)

	CreateChallenge(c *storage.Challenge) error
	Challenge(channelID string) (*storage.Challenge, error)
	UpdateChallenge(channelID string, fn func(*storage.Challenge) error) (*storage.Challenge, error)
	DeleteChallenge(channelID string, id uint64) error
	AcceptChallenge(channelID string, challengeID uint64, g *storage.Game) error
	MoveIntoThread(channelID string, gameID uint64, threadID string) (*storage.Game, error)

	FinishedGame(guildID string, id uint64) (*storage.FinishedGame, error)
	LastFinishedGame(guildID, channelID string) (*storage.FinishedGame, error)
	SaveReview(guildID string, gameID uint64, data []byte) error
	Review(guildID string, gameID uint64) ([]byte, error)
	History(guildID, userID string, limit int, before uint64) ([]storage.HistoryEntry, error)
	HeadToHead(guildID, a, b string) (storage.Tally, error)
	RatingTrend(guildID, userID string, ladder storage.Ladder, n int) ([]storage.RatingPoint, error)
	Profile(guildID, userID string, ladder storage.Ladder) (*storage.Profile, error)
	Leaderboard(guildID string, ladder storage.Ladder, offset, limit int) ([]storage.Profile, int, error)

	GuildSettings(guildID string) (storage.GuildSettings, error)
	UpdateGuildSettings(guildID string, fn func(*storage.GuildSettings) error) (storage.GuildSettings, error)
	UserSettings(userID string) (storage.UserSettings, error)
	UpdateUserSettings(userID string, fn func(*storage.UserSettings) error) (storage.UserSettings, error)

	NextWake() (time.Time, bool, error)
	Due(now time.Time) ([]storage.Wake, error)
	Claim(w storage.Wake, owner string, now time.Time, d time.Duration) (bool, error)
	SetAlive(t time.Time) error
	Resume(now time.Time, minDown time.Duration, fn func(g *storage.Game, down time.Duration) (bool, error)) (time.Duration, []*storage.Game, error)

	Export(fn func(storage.Record) error) error
	Import(records func(fn func(storage.Record) error) error) (map[string]int, error)
}

// Open opens a new, empty store with the options opt for the test tb;
// the store is closed when the test ends.
type Open func(tb testing.TB, opt storage.Options) Store

// Run runs every test of the suite, each on stores of its own that open
// makes.
func Run(t *testing.T, open Open) {
	tests := []struct {
		name string
		fn   func(*testing.T, Open)
	}{
		{"Resume", testResume},
		{"ExportImport", testExportImport},
		{"ImportRefusesNonEmpty", testImportRefusesNonEmpty},
		{"ImportRefusesEmptyRecord", testImportRefusesEmptyRecord},
		{"NoteBoard", testNoteBoard},
		{"Claim", testClaim},
		{"ClaimAtOnce", testClaimAtOnce},
		{"ChallengeLifecycle", testChallengeLifecycle},
		{"ChallengeLayoutIsStoredCanonical", testChallengeLayoutIsStoredCanonical},
		{"CreateChallengeRefuses", testCreateChallengeRefuses},
		{"UpdateChallengeRefuses", testUpdateChallengeRefuses},
		{"AcceptChallenge", testAcceptChallenge},
		{"AcceptChallengeRefuses", testAcceptChallengeRefuses},
		{"MoveIntoThread", testMoveIntoThread},
		{"FinishMovesTheGame", testFinishMovesTheGame},
		{"RatedGameUpdatesProfiles", testRatedGameUpdatesProfiles},
		{"DirectMessageGame", testDirectMessageGame},
		{"EndingsCount", testEndingsCount},
		{"StreaksAndBestWin", testStreaksAndBestWin},
		{"AILadder", testAILadder},
		{"RatingDecay", testRatingDecay},
		{"Leaderboard", testLeaderboard},
		{"History", testHistory},
		{"RatingTrend", testRatingTrend},
		{"CreateGame", testCreateGame},
		{"CreateGameRefuses", testCreateGameRefuses},
		{"GameNotFound", testGameNotFound},
		{"UpdateGame", testUpdateGame},
		{"UpdateGameWritesNothingOnError", testUpdateGameWritesNothingOnError},
		{"StaleMoveIsRefused", testStaleMoveIsRefused},
		{"ConcurrentMoves", testConcurrentMoves},
		{"ReadsAreCopies", testReadsAreCopies},
		{"FinishedGameIsNoLongerActive", testFinishedGameIsNoLongerActive},
		{"GuildGames", testGuildGames},
		{"ActiveGames", testActiveGames},
		{"UpdatedHook", testUpdatedHook},
		{"Reviews", testReviews},
		{"LastFinishedGame", testLastFinishedGame},
		{"Settings", testSettings},
		{"UpdateSettingsRefuses", testUpdateSettingsRefuses},
		{"WakeIndex", testWakeIndex},
		{"WakeOfComputer", testWakeOfComputer},
		{"WakeRemovedWithChallenge", testWakeRemovedWithChallenge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, open) })
	}
}

package storagetest

import (
	"testing"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/storage"
)

// Store is what the suite tests: the bot's store, with Export and
// Import.
type Store interface {
	bot.Store
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

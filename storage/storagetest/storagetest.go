package storagetest

import (
	"context"
	"testing"
	"time"

	"github.com/kulami/kulami/engine/puzzle"
	"github.com/kulami/kulami/storage"
)

// Store is the contract of a backend of kulami's storage that the suite
// checks: the methods of storage.Core, which every backend embeds and
// which document what each does and the errors it returns, and
// NoteBoard, which each backend writes its own way (see storage.Store's
// and storage/postgres's).
type Store interface {
	CreateGame(ctx context.Context, g *storage.Game) error
	Game(ctx context.Context, channelID string) (*storage.Game, error)
	UpdateGame(ctx context.Context, channelID string, fn func(*storage.Game) error) (*storage.Game, error)
	NoteBoard(ctx context.Context, channelID string, gameID uint64, ply int, messageID string) error
	GuildGames(ctx context.Context, guildID string, limit int) ([]*storage.Game, int, error)
	ActiveGames(ctx context.Context) (int, error)

	CreateChallenge(ctx context.Context, c *storage.Challenge) error
	Challenge(ctx context.Context, channelID string) (*storage.Challenge, error)
	UpdateChallenge(ctx context.Context, channelID string, fn func(*storage.Challenge) error) (*storage.Challenge, error)
	DeleteChallenge(ctx context.Context, channelID string, id uint64) error
	AcceptChallenge(ctx context.Context, channelID string, challengeID uint64, g *storage.Game) error
	MoveIntoThread(ctx context.Context, channelID string, gameID uint64, threadID string) (*storage.Game, error)

	FinishedGame(ctx context.Context, guildID string, id uint64) (*storage.FinishedGame, error)
	SetFinalBoard(ctx context.Context, guildID string, id uint64, messageID string, due time.Time) error
	LastFinishedGame(ctx context.Context, guildID, channelID string) (*storage.FinishedGame, error)
	SaveReview(ctx context.Context, guildID string, gameID uint64, data []byte) error
	Review(ctx context.Context, guildID string, gameID uint64) ([]byte, error)
	QueueReview(ctx context.Context, p storage.PendingReview) error
	DropReview(ctx context.Context, guildID string, gameID uint64) error
	PendingReviews(ctx context.Context) ([]storage.PendingReview, error)
	History(ctx context.Context, guildID, userID string, limit int, before uint64) ([]storage.HistoryEntry, error)
	HeadToHead(ctx context.Context, guildID, a, b string) (storage.Tally, error)
	RatingTrend(ctx context.Context, guildID, userID string, ladder storage.Ladder, n int) ([]storage.RatingPoint, error)
	Profile(ctx context.Context, guildID, userID string, ladder storage.Ladder) (*storage.Profile, error)
	Leaderboard(ctx context.Context, guildID string, ladder storage.Ladder, offset, limit int) ([]storage.Profile, int, error)
	SeasonLeaderboard(ctx context.Context, guildID string, season storage.Season, ladder storage.Ladder, offset, limit int) ([]storage.Profile, int, error)
	LeaderboardFrom(ctx context.Context, guildID string, season storage.Season, ladder storage.Ladder, from storage.Mark, before bool, limit int) ([]storage.Profile, int, error)

	GuildSettings(ctx context.Context, guildID string) (storage.GuildSettings, error)
	UpdateGuildSettings(ctx context.Context, guildID string, fn func(*storage.GuildSettings) error) (storage.GuildSettings, error)
	SeasonChannels(ctx context.Context) ([]storage.GuildSettingsEntry, error)
	UserSettings(ctx context.Context, userID string) (storage.UserSettings, error)
	UpdateUserSettings(ctx context.Context, userID string, fn func(*storage.UserSettings) error) (storage.UserSettings, error)

	Vacation(ctx context.Context, userID string) (*storage.Vacation, error)
	UpdateVacation(ctx context.Context, userID string, fn func(v *storage.Vacation, games []*storage.Game) error) (*storage.Vacation, []*storage.Game, error)
	UpdatePlayerGames(ctx context.Context, userID string, fn func(games []*storage.Game) error) ([]*storage.Game, error)
	PlayerGames(ctx context.Context, userID string) ([]*storage.Game, error)
	NewestPlayerGames(ctx context.Context, userID string, limit int) ([]*storage.Game, int, error)

	NextWake(ctx context.Context) (time.Time, bool, error)
	Due(ctx context.Context, now time.Time) ([]storage.Wake, error)
	Claim(ctx context.Context, w storage.Wake, owner string, now time.Time, d time.Duration) (bool, error)
	SetAlive(ctx context.Context, t time.Time) error
	BeginResume(ctx context.Context, now time.Time, minDown time.Duration, perSecond int) (time.Duration, bool, error)
	Resuming(ctx context.Context) (*storage.Resuming, error)
	Resume(ctx context.Context, fn func(g *storage.Game, down time.Duration) (bool, error)) (int, error)
	GiveBack(ctx context.Context, channels []string, fn func(g *storage.Game, down time.Duration) (bool, error)) ([]string, error)

	CreateTournament(ctx context.Context, t *storage.Tournament) error
	Tournament(ctx context.Context, guildID string, id uint64) (*storage.Tournament, error)
	GuildTournaments(ctx context.Context, guildID string) ([]*storage.Tournament, error)
	UpdateTournament(ctx context.Context, guildID string, id uint64, now time.Time, fn func(*storage.Tournament) error) (*storage.Tournament, error)
	OpenTournamentGame(ctx context.Context, g *storage.Game, now time.Time) error
	CancelTournament(ctx context.Context, guildID string, id uint64, now time.Time, fn func(released []*storage.Game)) (*storage.Tournament, []*storage.Game, error)

	LoadPuzzles(ctx context.Context, ps []puzzle.JSON) (int, error)
	Puzzle(ctx context.Context, id string) (*storage.PuzzleEntry, error)
	NextPuzzle(ctx context.Context, userID string) (*storage.PuzzleEntry, error)
	DailyPuzzle(ctx context.Context, day string) (*storage.DailyPuzzle, error)
	PuzzleProfile(ctx context.Context, userID string) (*storage.PuzzleProfile, error)
	PuzzleLeaderboard(ctx context.Context, guildID string, from *storage.Mark, before bool, limit int) ([]storage.PuzzleProfile, int, error)
	PuzzleAttempt(ctx context.Context, userID, puzzleID string) (*storage.PuzzleAttempt, error)
	PuzzleTry(ctx context.Context, userID string) (*storage.PuzzleTry, error)
	StartPuzzle(ctx context.Context, t *storage.PuzzleTry) error
	AdvancePuzzle(ctx context.Context, step int, next *storage.PuzzleTry) error
	FinishPuzzle(ctx context.Context, r storage.PuzzleResult) (*storage.PuzzleOutcome, error)
	ClaimDailyPost(ctx context.Context, guildID, day, channelID string) (bool, error)
	NoteDailyPost(ctx context.Context, guildID, day, messageID string) error
	DailyPost(ctx context.Context, guildID, day string) (*storage.DailyPost, error)
	PuzzleChannels(ctx context.Context) ([]storage.GuildSettingsEntry, error)

	RoleLink(ctx context.Context, userID string) (*storage.RoleLink, error)
	UpdateRoleLink(ctx context.Context, userID string, fn func(*storage.RoleLink) error) (*storage.RoleLink, error)
	DeleteRoleLink(ctx context.Context, userID string) error

	Export(ctx context.Context, fn func(storage.Record) error) error
	Import(ctx context.Context, records func(ctx context.Context, fn func(storage.Record) error) error) (map[string]int, error)
}

// Open opens a new, empty store with the options opt for the test tb;
// the store is closed when the test ends.
type Open func(tb testing.TB, opt storage.Options) Store

// Run runs every test of the suite, each on stores of its own that open
// makes, in parallel.
func Run(t *testing.T, open Open) {
	tests := []struct {
		name string
		fn   func(*testing.T, Open)
	}{
		{"Resume", testResume},
		{"ResumeInBatches", testResumeInBatches},
		{"GiveBack", testGiveBack},
		{"CancelledContext", testCancelledContext},
		{"ExportImport", testExportImport},
		{"GuildGamesMoved", testGuildGamesMoved},
		{"IndexesUnderConcurrentWriters", testIndexesUnderConcurrentWriters},
		{"RankBandsUnderConcurrentWriters", testRankBandsUnderConcurrentWriters},
		{"GuildGamesUnderConcurrentWriters", testGuildGamesUnderConcurrentWriters},
		{"GuildGamesRacingStarts", testGuildGamesRacingStarts},
		{"GuildGamesReplaced", testGuildGamesReplaced},
		{"ImportBuildsIndexes", testImportBuildsIndexes},
		{"ImportInBatches", testImportInBatches},
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
		{"EverywhereLadder", testEverywhereLadder},
		{"EndingsCount", testEndingsCount},
		{"StreaksAndBestWin", testStreaksAndBestWin},
		{"AILadder", testAILadder},
		{"RatingDecay", testRatingDecay},
		{"Leaderboard", testLeaderboard},
		{"History", testHistory},
		{"RatingTrend", testRatingTrend},
		{"CreateGame", testCreateGame},
		{"PlayingOverDays", testPlayingOverDays},
		{"Vacation", testVacation},
		{"VacationOpensWithTheFirstGame", testVacationOpensWithTheFirstGame},
		{"UpdatePlayerGames", testUpdatePlayerGames},
		{"PlayerGames", testPlayerGames},
		{"PlayerGamesUnderConcurrentWriters", testPlayerGamesUnderConcurrentWriters},
		{"NewestPlayerGames", testNewestPlayerGames},
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
		{"PendingReviews", testPendingReviews},
		{"LastFinishedGame", testLastFinishedGame},
		{"Settings", testSettings},
		{"RoleLink", testRoleLink},
		{"UpdateSettingsRefuses", testUpdateSettingsRefuses},
		{"WakeIndex", testWakeIndex},
		{"WakeOfBoardOwed", testWakeOfBoardOwed},
		{"WakeOfBoardEdit", testWakeOfBoardEdit},
		{"BoardOwedPaidByNote", testBoardOwedPaidByNote},
		{"FinalBoardOwed", testFinalBoardOwed},
		{"WakeOfComputer", testWakeOfComputer},
		{"WakeRemovedWithChallenge", testWakeRemovedWithChallenge},
		{"SeasonLadders", testSeasonLadders},
		{"SeasonAILadder", testSeasonAILadder},
		{"SeasonLeaderboardRefuses", testSeasonLeaderboardRefuses},
		{"LeaderboardFrom", testLeaderboardFrom},
		{"SeasonChannels", testSeasonChannels},
		{"TournamentLifecycle", testTournamentLifecycle},
		{"TournamentGameRecordsItsResult", testTournamentGameRecordsItsResult},
		{"TournamentForfeit", testTournamentForfeit},
		{"TournamentDoubleForfeit", testTournamentDoubleForfeit},
		{"TournamentCancelReleasesItsGames", testTournamentCancelReleasesItsGames},
		{"TournamentAdjudicatedGameRated", testTournamentAdjudicatedGameRated},
		{"TournamentExportImport", testTournamentExportImport},
		{"LoadPuzzles", testLoadPuzzles},
		{"LoadPuzzlesAtOnce", testLoadPuzzlesAtOnce},
		{"NextPuzzle", testNextPuzzle},
		{"FinishPuzzle", testFinishPuzzle},
		{"PuzzleLeaderboard", testPuzzleLeaderboard},
		{"DailyPuzzle", testDailyPuzzle},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel() // each test on stores of its own: their waits for the disk or the server overlap
			tt.fn(t, open)
		})
	}
}

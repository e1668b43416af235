package review_test

import (
	"context"
	"testing"

	"github.com/kulami/kulami/engine/review"
)

// BenchmarkReview56 analyses the 56 moves of finished.kgn at the default
// budget (review.Options{}: DefaultPlayouts per position, one core):
//
//	go test ./engine/review -run '^$' -bench Review56 -benchtime 1x -count 5
func BenchmarkReview56(b *testing.B) {
	rec := mustRecord(b, "finished.kgn")
	for b.Loop() {
		if _, err := review.Analyse(context.Background(), rec, review.Options{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

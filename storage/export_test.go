package storage_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/kulami/kulami/storage"
)

// TestRecordOf: a record gives its value back to its own kind only.
func TestRecordOf(t *testing.T) {
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	r := storage.AliveRecords.Record(&at)
	got, ok := storage.AliveRecords.Of(r)
	if assert.True(t, ok) {
		assert.Equal(t, at, *got)
	}
	seq, ok := storage.SequenceRecords.Of(r)
	assert.False(t, ok, "an alive record is no sequence")
	assert.Nil(t, seq)
	_, ok = storage.AliveRecords.Of(storage.Record{})
	assert.False(t, ok, "the zero record is of no kind")
}

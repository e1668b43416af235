package discordtest_test

import (
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kulami/kulami/bot/discordtest"
)

func TestLogBuffer(t *testing.T) {
	var logs discordtest.LogBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	var wg sync.WaitGroup
	for n := range 10 {
		wg.Go(func() { log.Info("move", "n", n) })
	}
	wg.Wait()
	assert.Equal(t, 10, strings.Count(logs.String(), "msg=move"), "every line from every goroutine")
	first := logs.Take()
	assert.Equal(t, 10, strings.Count(first, "\n"))
	assert.Empty(t, logs.String(), "Take forgets")
	fmt.Fprint(&logs, "next")
	assert.Equal(t, "next", logs.Take())
}

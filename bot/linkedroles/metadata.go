package linkedroles

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/storage"
)

// The metadata keys, as roles' requirements name them.
const (
	keyBestRating     = "best_rating"
	keyGamesPlayed    = "games_played"
	keyPuzzleRating   = "puzzle_rating"
	keyPuzzlesSolved  = "puzzles_solved"
	keySeasonChampion = "season_champion"
)

// Discord's metadata types (application role connection metadata type).
const (
	integerAtLeast = 2 // INTEGER_GREATER_THAN_OR_EQUAL
	booleanEqual   = 7 // BOOLEAN_EQUAL
)

// Record is one metadata record as Discord takes it.
type Record struct {
	Type                     int               `json:"type"`
	Key                      string            `json:"key"`
	Name                     string            `json:"name"`
	NameLocalizations        map[string]string `json:"name_localizations,omitempty"`
	Description              string            `json:"description"`
	DescriptionLocalizations map[string]string `json:"description_localizations,omitempty"`
}

// Records returns the application's five metadata records, their names
// and descriptions in every language of the bot (English the default,
// the others by their Discord locales).
func Records() []Record {
	out := make([]Record, 0, 5)
	for _, m := range []struct {
		key string
		typ int
	}{
		{keyBestRating, integerAtLeast},
		{keyGamesPlayed, integerAtLeast},
		{keyPuzzleRating, integerAtLeast},
		{keyPuzzlesSolved, integerAtLeast},
		{keySeasonChampion, booleanEqual},
	} {
		r := Record{Type: m.typ, Key: m.key,
			Name:              i18n.English.Plain("linked_roles.meta_" + m.key),
			Description:       i18n.English.Plain("linked_roles.meta_" + m.key + "_desc"),
			NameLocalizations: map[string]string{}, DescriptionLocalizations: map[string]string{}}
		for _, l := range i18n.Langs() {
			if l == i18n.English {
				continue
			}
			for _, loc := range l.DiscordLocales() {
				r.NameLocalizations[loc] = l.Plain("linked_roles.meta_" + m.key)
				r.DescriptionLocalizations[loc] = l.Plain("linked_roles.meta_" + m.key + "_desc")
			}
		}
		out = append(out, r)
	}
	return out
}

// Values are a player's metadata.
type Values struct {
	// BestRating is the best of the player's ratings on the human
	// ladders of the link's guilds; 0 with no game rated there.
	BestRating int
	// Games counts the player's rated games on those ladders.
	Games int
	// PuzzleRating is the player's puzzle rating; 0 before any puzzle
	// counted.
	PuzzleRating int
	// PuzzlesSolved counts the puzzles solved at the first attempt.
	PuzzlesSolved int
	// Champion is set once the player won a season in any guild.
	Champion bool
}

// metadata returns v as Discord's metadata values: integers, and "1" or
// "0"; a rating the player has not got yet is left out, so that no
// requirement of a rating is met by none.
func (v Values) metadata() map[string]string {
	m := map[string]string{
		keyGamesPlayed:    strconv.Itoa(v.Games),
		keyPuzzlesSolved:  strconv.Itoa(v.PuzzlesSolved),
		keySeasonChampion: "0",
	}
	if v.BestRating > 0 {
		m[keyBestRating] = strconv.Itoa(v.BestRating)
	}
	if v.PuzzleRating > 0 {
		m[keyPuzzleRating] = strconv.Itoa(v.PuzzleRating)
	}
	if v.Champion {
		m[keySeasonChampion] = "1"
	}
	return m
}

// valuesOf computes the metadata of the player of link from the store.
func valuesOf(ctx context.Context, s Store, link *storage.RoleLink) (Values, error) {
	v := Values{Champion: link.Champion}
	for _, g := range link.Guilds {
		p, err := s.Profile(ctx, g, link.UserID, storage.Human)
		if errors.Is(err, storage.ErrNotFound) {
			continue
		}
		if err != nil {
			return v, fmt.Errorf("profile in %q: %w", g, err)
		}
		v.BestRating = max(v.BestRating, int(math.Round(p.Rating.Rating)))
		v.Games += p.Games()
	}
	pp, err := s.PuzzleProfile(ctx, link.UserID)
	switch {
	case errors.Is(err, storage.ErrNotFound):
	case err != nil:
		return v, fmt.Errorf("puzzle profile: %w", err)
	case pp.Attempts > 0:
		v.PuzzleRating, v.PuzzlesSolved = int(math.Round(pp.Rating.Rating)), pp.Solved
	}
	return v, nil
}

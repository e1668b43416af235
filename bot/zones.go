package bot

import (
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// zoneSuggestions is how many names a refused time zone suggests.
const zoneSuggestions = 3

// zoneKey is a time zone name as typed, made comparable with the list's:
// trimmed, lower case, spaces as underscores ("new york" → "new_york").
func zoneKey(s string) string {
	return strings.ToLower(strings.ReplaceAll(strings.TrimSpace(s), " ", "_"))
}

// parseZone reads a time zone option: a name of zoneNames, whatever its
// case ("europe/paris"). It returns the zone, or nil and the names
// nearest to what was typed (nearestZones).
func parseZone(s string) (*time.Location, []string) {
	key := zoneKey(s)
	for _, name := range zoneNames {
		if strings.ToLower(name) == key {
			if z, err := time.LoadLocation(name); err == nil {
				return z, nil
			}
		}
	}
	return nil, nearestZones(key, zoneSuggestions)
}

// nearestZones returns the n names of zoneNames nearest to key (a
// zoneKey): the fewest edits from the whole name or from its city (the
// part after the last slash), ties in the list's order.
func nearestZones(key string, n int) []string {
	type scored struct {
		name string
		d    int
	}
	all := make([]scored, len(zoneNames))
	for i, name := range zoneNames {
		lower := strings.ToLower(name)
		city := lower[strings.LastIndexByte(lower, '/')+1:]
		all[i] = scored{name, min(edits(key, lower), edits(key, city))}
	}
	slices.SortStableFunc(all, func(a, b scored) int { return a.d - b.d })
	out := make([]string, 0, n)
	for _, s := range all[:n] {
		out = append(out, s.name)
	}
	return out
}

// maxZoneKey bounds what edits compares: no zone name is longer, and a
// longer text costs nothing more to refuse.
const maxZoneKey = 64

// edits returns the Levenshtein distance between a and b (in bytes), a
// cut to maxZoneKey.
func edits(a, b string) int {
	a = a[:min(len(a), maxZoneKey)]
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// zoneChoices are the autocomplete choices of a time zone option: the
// names that hold what was typed, whatever its case, up to Discord's 25;
// the nearest names if none does.
func zoneChoices(typed string) []*discordgo.ApplicationCommandOptionChoice {
	key := zoneKey(typed)
	var names []string
	for _, name := range zoneNames {
		if len(names) < maxOptions && strings.Contains(strings.ToLower(name), key) {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		names = nearestZones(key, zoneSuggestions)
	}
	out := make([]*discordgo.ApplicationCommandOptionChoice, 0, len(names))
	for _, name := range names {
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: name, Value: name})
	}
	return out
}

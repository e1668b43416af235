// Package lru keeps values within a budget of bytes, evicting the least
// recently used first. The renderer's boards (draw) and the bot's animated
// replays share it: both keep images that are costly to draw and never
// change once drawn, so the only question is which to keep.
package lru

// Package sample plays the random games that draw's reference images (the
// palettes) and its tests are drawn from, the same for the same seed.
package sample

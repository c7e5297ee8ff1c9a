//go:build !race

package app

// rssScale widens the peak RSS bounds of the hostile Git tests under the
// race detector; without it they hold as stated.
const rssScale = 1

//go:build race

package app

// rssScale widens the peak RSS bounds of the hostile Git tests under the
// race detector, whose shadow memory the child's RSS includes.
const rssScale = 4

// Package afterstructural gives back start-up's pages once the structural search is
// initialised (see package stages).
package afterstructural

import (
	_ "github.com/evgrep/evgrep/structural"

	"github.com/evgrep/evgrep/internal/startpages"
)

func init() { startpages.Drop() }

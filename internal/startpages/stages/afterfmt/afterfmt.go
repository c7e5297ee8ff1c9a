// Package afterfmt gives back start-up's pages once fmt and the standard
// packages it needs are initialised (see package stages).
package afterfmt

import (
	_ "fmt"

	"github.com/evgrep/evgrep/internal/startpages"
)

func init() { startpages.Drop() }

// Package afterjson gives back start-up's pages once encoding/json is
// initialised (see package stages).
package afterjson

import (
	_ "encoding/json"

	"github.com/evgrep/evgrep/internal/startpages"
)

func init() { startpages.Drop() }

package agent

import (
	"encoding/json"
	"sync"

	"github.com/evgrep/evgrep/internal/stackhint"
)

// encoding/json builds the encoder of a type, with those of every type it
// holds, by reflection the first time it marshals a value of the type: for
// Details, the structured half of every answer, about a millisecond here,
// paid by the first detailsSize of each process on the answer's critical
// path after the search. warmEncoders builds them once per process on its
// own goroutine when a request arrives, so that the reflection overlaps
// the walk; json's cache of encoders is safe for concurrent use, and a
// render that gets there first builds them itself as before.
var warmEncoders = sync.OnceFunc(func() {
	go func() {
		stackhint.Deep()
		_, _ = json.Marshal(&Details{})
		_, _ = json.Marshal(&Answer{})
	}()
})

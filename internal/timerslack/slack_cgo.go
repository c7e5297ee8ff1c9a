//go:build linux && cgo

package timerslack

/*
#include <sys/prctl.h>

// evg_timerslack runs before main and before the Go runtime starts its
// threads, which inherit the slack.
__attribute__((constructor)) static void evg_timerslack(void) {
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
}
*/
import "C"

package growbuf

import "runtime"

var runtimeLinux = runtime.GOOS == "linux"

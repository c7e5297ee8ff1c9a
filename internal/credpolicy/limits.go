package credpolicy

// Bounds of a policy's computation.
const (
	// maxPathBytes is the longest path the system opens (Linux PATH_MAX);
	// a longer one is left unresolved.
	maxPathBytes = 4096
	// maxOtherHomes bounds the home folders of other accounts (folders of
	// /home, homes of /etc/passwd) a policy running as root lists;
	// maxPasswdBytes the part of /etc/passwd it reads.
	maxOtherHomes  = 256
	maxPasswdBytes = 1 << 20
	// maxHomeListBytes and maxHomeNames bound the home folders a policy
	// lists once instead of looking up each credential store in them
	// (addHome): the folder's size as stat gives it (ext4: 4 KiB a block,
	// about 150 names) and the names read.
	maxHomeListBytes = 16 << 10
	maxHomeNames     = 1 << 10
)

// MaxStoreComponents is the most path components an entry of Stores has
// (.local/share/fish/fish_history); TestStoreComponents checks the table
// against it.
const MaxStoreComponents = 4

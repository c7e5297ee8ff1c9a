package printer

// SpillBytes is how much of one file's output a printer holds once a spill
// function is set (SetSpill): beyond it the output is handed over, so that
// printing a 1 GiB line does not hold its gigabytes of output.
const SpillBytes = 1 << 20

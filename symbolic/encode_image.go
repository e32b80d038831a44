package symbolic

import (
	"fmt"

	"github.com/wyvernmc/wyvern/vm"
)

// The platform's part of the initial image. main(argc, argv) gets what the
// vm passes a run without arguments (vm.Machine.MainArgs): argc 1 and argv
// pointing at the array {argv[0], NULL} in the platform's blocks after the
// program's globals (argv[0] is the program's file name), with the data
// model's pointer width. The encoder takes those blocks and values from a
// vm.Machine of the program itself, so that its memory starts as the
// vm's, block ids included: a witness replays, and a program that reads
// argv reads the same bytes.

// platformImage sets up main's arguments and the platform's blocks of the
// initial image for a main that takes argv (other programs need none of
// them: the vm adds its other platform blocks only for library functions
// the encoder refuses).
func (e *encoder) platformImage() error {
	main := e.p.Funcs[e.p.Entry]
	if len(main.Params) < 2 {
		return nil
	}
	m := vm.NewMachine(e.p)
	argc, argv, bad := m.MainArgs()
	if bad != "" {
		// the vm's first state fails with ResourceLimit: not modelled
		return fmt.Errorf("symbolic: encode: %s(argc, argv): %s", main.Name, bad)
	}
	e.argc, e.argv, e.img = argc, argv, m.PlatformImage()
	for _, b := range e.img {
		if len(b.Data) > maxBlockBytes {
			return fmt.Errorf("symbolic: encode: %s(argc, argv): a platform block of %d bytes: too large for the BMC encoder", main.Name, len(b.Data))
		}
		e.dyn0 = max(e.dyn0, b.ID+1)
		e.maxBlock = max(e.maxBlock, uint64(len(b.Data)))
		e.sizeAt[uint64(b.ID)] = max(e.sizeAt[uint64(b.ID)], uint64(len(b.Data)))
	}
	return nil
}

// firstDyn is the id of the first block allocated (after the program's
// globals and functions and the platform's blocks).
func (e *encoder) firstDyn() uint32 { return max(e.p.FirstDynBlock, e.dyn0) }

// imageKind is the encoder's kind of a platform block.
func imageKind(b vm.ImageBlock) uint64 {
	if b.Const {
		return kConst
	}
	return kGlobal
}

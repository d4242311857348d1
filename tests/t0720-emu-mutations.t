#!/bin/sh
# Mutation tests: copies of the committed kernels with a planted bug must be
# caught the right way, or the emulator's checks prove nothing.
#   bar.sync removed                      -> a shared-memory race (exit 8)
#   first row predicate off by one (>=0)  -> an out-of-bounds load (exit 8)
#   two global stores' addresses swapped  -> verification fails (exit 1), or
#                                            a store faults first (exit 8):
#                                            out of bounds or misaligned
# A mutation that no longer applies (the generator changed the kernels) is a
# failure, never a silent pass.
cd "$(dirname "$0")/.." || exit 1
PX=build/ptxpose
# 36x68 reaches the first-row predicate of the vector kernels; 5x68 and
# 68x5 reach it in the tall tiles (128 rows) whose threads start on rows 0-7,
# 16x68 in the packed 8- and 16-bit blocks (16 or 8 rows each); 144x160 gives
# the 128x128 tiles an interior (vector) tile whose stores can be swapped;
# the padded leading dimensions take their vector paths. 4x68 puts a
# vector kernel's first row predicate (a thread's first row, 0 to 14) on
# the matrix's end in the edge path with whole vectors (an even row count);
# 272x80 gives the 256-row tiles (narrow_tall_*) an interior vector tile.
# 3x9000 (wide) and 9000x3 (tall) give the small-dimension kernels, in the
# direction each is made for, interior stages; the other way round they
# would emulate 9000 mostly idle blocks (t0713 covers that path). 264x264
# gives the 256x256 tiles (fast_t256x256_b8) an interior vector tile.
# 64x4096 (wide) and 4096x64 (tall) give the register kernels
# (skinny_*_reg_*) tiles on their register path, with whole 16-byte run
# segments (K a multiple of kmax, the runs 16-byte aligned).
SHAPES="67x129,36x68,5x68,4x68,68x5,16x68,144x160,272x80,67x129:ld_in=132:ld_out=72"
# meta FILE: its '// ptxpose ' metadata lines' words in $meta (" k=v k=v "),
# read by the shell up to the first line that is no comment: a grep (or a
# basename) a kernel and mutation cost more CPU than most of their emulations
meta() {
	meta=" "
	while IFS= read -r l; do
		case $l in
		"// ptxpose "*) meta="$meta${l#// ptxpose } " ;;
		//*) ;;
		*) break ;;
		esac
	done <"$1"
}
shapes_for() {
	meta "$1"
	case $meta in
	*" skinny=wide "*) echo "$SHAPES,3x9000,64x4096" ;;
	*" skinny=tall "*) echo "$SHAPES,9000x3,4096x64" ;;
	*" tile=256x256 "*) echo "$SHAPES,264x264" ;;
	*" grid=flat "*) echo "$SHAPES,7x5:batch=9,3x3:batch=250" ;; # chunks of several matrices, whole ones (the gathering kernels' whole vectors)
	*) echo "$SHAPES" ;;
	esac
}
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT

set -- $(grep -L '^// ptxpose kernel=[a-z_0-9]* abi=[34] ' ptx/*.ptx) # v3 kernels (*_nd_*): their v2 twins' mutations stand for them (t0718 runs them); v4 (pack_*): t0722
if [ ! -e "$1" ]; then
	echo "1..1"
	echo "not ok 1 - no PTX files in ptx/ (they are committed: regenerate with ninja ptx)"
	exit 1
fi

. tests/lib/mutate.sh

BOUND='setp\.gt\.s32\( *%ld_row_ok, %ld_rows_left, 0;\)'
race=$(grep -l 'bar\.sync' "$@")
oob=$(grep -l "$BOUND" "$@")
swap=""
for f in "$@"; do
	swap_addrs 'st\.global' "$f" >"$tmp/probe.ptx"
	cmp -s "$f" "$tmp/probe.ptx" || swap="$swap $f"
done
set -- $race
nrace=$#
set -- $oob
noob=$#
set -- $swap
nswap=$#
echo "1..$((nrace + noob + nswap + 4))"
n=0

# report NAME RC WANT_RC OUTPUT_FILE PATTERN
report() {
	n=$((n + 1))
	if [ "$2" = "$3" ] && grep -q -- "$5" "$4"; then
		echo "ok $n - $1: exit $2, '$5'"
	else
		sed 's/^/# /' "$4" | head -20
		echo "not ok $n - $1: exit $2 (want $3 and a message with '$5')"
	fi
}

# The unmutated kernels pass: otherwise the mutants below prove nothing.
n=$((n + 1))
if $PX check --emulate --shapes "$SHAPES" "$@" >"$tmp/out" 2>&1 &&
	$PX check --emulate --shapes 3x9000 $(grep -l '^// ptxpose skinny=wide ' ptx/*.ptx) >>"$tmp/out" 2>&1 &&
	$PX check --emulate --shapes 9000x3 $(grep -l '^// ptxpose skinny=tall ' ptx/*.ptx) >>"$tmp/out" 2>&1; then
	echo "ok $n - the committed kernels pass on $SHAPES (and 3x9000 wide, 9000x3 tall)"
else
	grep -v '^ok' "$tmp/out" | sed 's/^/# /' | head -20
	echo "not ok $n - the committed kernels pass on $SHAPES (and 3x9000 wide, 9000x3 tall)"
fi
n=$((n + 1))
[ "$nrace" -gt 0 ] && echo "ok $n - $nrace kernels have a bar.sync to remove" ||
	echo "not ok $n - no kernel has a bar.sync to remove (update this test)"
n=$((n + 1))
[ "$noob" -gt 0 ] && echo "ok $n - $noob kernels have the row predicate '$BOUND'" ||
	echo "not ok $n - no kernel has the row predicate '$BOUND' (update this test)"
n=$((n + 1))
[ "$nswap" -gt 0 ] && echo "ok $n - $nswap kernels have two global stores to swap" ||
	echo "not ok $n - no kernel has two global stores to swap (update this test)"

for f in $race; do
	m="$tmp/${f##*/}"; m="${m%.ptx}_nobar.ptx"
	sed '/bar\.sync/d' "$f" >"$m"
	# the study kernels use their shared stage on aligned interior tiles only
	# and the flat ones for matrices that fit a chunk (gen/tp_flat.c)
	r=67 c=129 b=1
	meta "$f"
	case $meta in *" study=1 "*) r=128 c=128 ;; esac
	case $meta in *" grid=flat "*) r=3 c=3 b=1000 ;; esac
	$PX run --emulate "$m" --rows $r --cols $c --batch $b >"$tmp/out" 2>&1
	report "${f##*/} without bar.sync" $? 8 "$tmp/out" "shared-memory race at .*no bar.sync between them"
done

for f in $oob; do
	m="$tmp/${f##*/}"; m="${m%.ptx}_oob.ptx"
	sed "0,/$BOUND/s//setp.ge.s32\\1/" "$f" >"$m"
	$PX check --emulate --shapes "$(shapes_for "$f")" "$m" >"$tmp/out" 2>&1
	report "${f##*/} with rows_left >= 0" $? 8 "$tmp/out" "global load of [0-9]* bytes at in+0x[0-9a-f]* (allocation is"
done

for f in $swap; do
	m="$tmp/${f##*/}"; m="${m%.ptx}_swap.ptx"
	swap_addrs 'st\.global' "$f" >"$m"
	$PX check --emulate --shapes "$(shapes_for "$f")" "$m" >"$tmp/out" 2>&1
	rc=$?
	if [ $rc -eq 8 ]; then
		# a swapped store may fault before a wrong value is seen: in the
		# skinny kernels the first two stores are granules of different
		# branches or runs, and swapped one lands past the output (3x9000)
		# or off its 16-byte alignment (the K-edge store of 9000x3); in the
		# row copies (op=copy) the first two are element stores of two rows,
		# a tile's row apart, and one lands past the output
		report "${f##*/} with two stores swapped" $rc 8 "$tmp/out" "global store of [0-9]* bytes at out+0x[0-9a-f]* (\(allocation is\|[0-9]*-byte accesses need\)"
	else
		report "${f##*/} with two stores swapped" $rc 1 "$tmp/out" "got 0x[0-9a-f]*, want 0x"
	fi
done

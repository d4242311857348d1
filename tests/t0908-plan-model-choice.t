#!/bin/sh
# plan says which model it used: the table fitted for the device (H200's
# for an H200, the H100's for an H100), in text and JSON, and predicts with
# it. No GPU (the real device's choice is the same function, in model_unit).
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose
P="--elem f32 --rows 3000 --cols 5000"

$PX plan --device h200 $P >"$tmp/h200.txt" 2>&1
grep -Eq "^model: H200 \(lib/model_params_h200.tsv, built in; fitted from [1-9][0-9]* cases; the device's name has H200, cc 9.0, 132 SMs as fitted\), fitted from: lib/model_data/h200-" "$tmp/h200.txt" &&
	ok "plan --device h200: the H200 model, its file, cases and why" || { nok "h200 text"; diag <"$tmp/h200.txt"; }
$PX plan --device h100 $P >"$tmp/h100.txt" 2>&1
grep -Eq "^model: H100 \(lib/model_params.tsv, built in; fitted from [1-9][0-9]* cases; the device's name has H100, cc 9.0, 132 SMs as fitted\), fitted from: lib/model_data/h100-" "$tmp/h100.txt" &&
	ok "plan (the built-in h100): the H100 model" || { nok "h100 text"; diag <"$tmp/h100.txt"; }
$PX plan --device h200 --sm-count 114 $P >"$tmp/sm.txt" 2>&1
grep -q "^model: H200 (.*114 SMs, fitted on 132)" "$tmp/sm.txt" && ok "... a described SM count other than the fit's is said" ||
	{ nok "sm count"; diag <"$tmp/sm.txt"; }

name() { python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print(d['model']['name'], d['cases'][0]['candidates'][0]['us'])" "$1"; }
$PX plan --json --device h200 $P >"$tmp/h200.json" && $PX plan --json --device h100 $P >"$tmp/h100.json" &&
	$PX plan --json --device h200 --params lib/model_params_h200.tsv $P >"$tmp/file.json" &&
	$PX plan --json --device h200 --params lib/model_params.tsv $P >"$tmp/h100file.json"
ok_json=$?
[ $ok_json -eq 0 ] && [ "$(name "$tmp/h200.json" | cut -d' ' -f1)" = H200 ] && [ "$(name "$tmp/h100.json" | cut -d' ' -f1)" = H100 ] &&
	ok "JSON: model.name H200 and H100" || nok "JSON names"
[ "$(name "$tmp/file.json")" = "file $(name "$tmp/h200.json" | cut -d' ' -f2)" ] &&
	ok "... a --params file is 'file'; the H200's file predicts what the built-in H200 model does" ||
	{ nok "H200 predictions"; name "$tmp/file.json" | diag; name "$tmp/h200.json" | diag; }
[ "$(name "$tmp/h100file.json" | cut -d' ' -f2)" != "$(name "$tmp/h200.json" | cut -d' ' -f2)" ] &&
	ok "... and not what the H100's table predicts for the same device" || nok "H100 table on h200"
finish

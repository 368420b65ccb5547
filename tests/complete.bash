# Source from bash: complete WORDS... prints the candidates bash would
# offer for the last word, one per line, with the real bash-completion
# library and completion/flashbench loaded.  FB names the program.
. /usr/share/bash-completion/bash_completion
. completion/flashbench
# outside a real completion bash refuses compopt; options are not checked
compopt() { :; }

complete_words() {
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="${COMP_WORDS[*]}"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	case ${COMP_WORDS[0]} in
	*flashbench-erase) fn=_flashbench_erase ;;
	*) fn=_flashbench ;;
	esac
	$fn "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" \
		"${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}"
}

#!/usr/bin/env bash
# SEED Playground: seed in the household (ALFWorld), tiny preset, seed 1, carried to the SEED repository's trainer
#     (verl-agent based).
# From the run in runs/tiny-seed (seed, 192 updates).
# The SEED repository: github.com/zhangdw156/SEED at commit 8efe6a77f8b28bcc7d5557f142c27d8b21e67e20. Every key below
#     is one of that commit's config keys (verl/trainer/config/ppo_trainer.yaml,
#     verl/trainer/config/sft_trainer.yaml), which SEED Playground's tests check. Written by `npm run seed --
#     export-verl`; its docs/verl.md says what each setting becomes.
#
# Run it from the SEED repository's root, with its environments installed (its README), MODEL_PATH the model to train:
#   MODEL_PATH=/models/Qwen2.5-3B-Instruct bash run_alfworld_seed.sh         # stage 1 (skill SFT), then stage 2 (RL)
#   STAGE=rl MODEL_PATH=/path/to/sft/model bash run_alfworld_seed.sh        # stage 2 alone
# Stage 1 fine-tunes MODEL_PATH on the hindsight-annotated trajectories beside this script
#     (sft_episode_skill_train.parquet, sft_episode_skill_val.parquet: prompt and response columns, the paper's skill
#     prompt); stage 2 trains from the SFT model it wrote.
# N_GPUS (8), OUT_DIR (outputs/ beside this script) and Hydra overrides after the script's name (stage 2) change the
#     rest.
#
# Replaced by the paper's values (for its models of 1.7B-7B parameters): the settings this run left at the
#     playground's defaults, which are chosen for its small model:
#   tasksPerUpdate = 16 (this run 4)
#   maxSteps = 30 (this run 10)
#   history = 5 (this run 10)
#   lr = 1e-6 (this run 5e-4)
#   weightDecay = 0.01 (this run 0)
# Carried from this run: the settings it changed from the playground's defaults, as it set them:
#   lambda = 0.3 (paper 0.01)
#
# Settings of this run with no counterpart there (what the trainer does instead):
#   skillAfterPage = 0 (paper 0): the SEED trainer puts the skill into the observation text in one place
#       (seed/prompting.py); where the block goes is no key there
#   skillSlot = 0 (paper 0): the SEED trainer's prompts hold a skill only where one is injected (seed/prompting.py);
#       its pretrained model reads a prompt at any length, and no key keeps an empty block in every prompt
#   constrained = 1 (paper 0): verl-agent decodes freely and projects the response onto an admissible action
#       (env_package/<benchmark>/projection.py), an invalid one paying the invalid-action penalty: the paper's free
#       decoding, constrained = 0
#   maxCommandTokens = 12 (paper 12): a response there is the LLM's whole answer, its reasoning and the action tag, in
#       subword tokens (data.max_response_length, 512 in the SEED launchers)
#   maxSkillTokens = 48 (paper 48): the analyzer there answers in JSON, in subword tokens
#       (algorithm.seed.analysis_max_completion_tokens, 4096 in the SEED launchers); a budget in the playground's
#       words has no measure there
#   analyzerTemperature = 0 (paper 0): the policy's vLLM samples the analysis with the trainer's own sampling; the
#       config has no key for the analyzer's temperature
#   skillGrammar = 1 (paper 0): the LLM writes its skill as free text in JSON; the skill grammar is the playground's,
#       over its closed vocabulary (the paper decodes freely, skillGrammar = 0)
#   winReward = 10 (paper 10): verl-agent's environment pays the reward (env_package/<benchmark>), not the config: 10
#       for a won ALFWorld game, the paper's winReward
#   scoreReward = 0 (paper 0): whether a WebShop episode pays its success or its score is verl-agent's environment's,
#       not a config key
#   stepNormalised = 0 (paper 0): verl-agent's episode-level group statistics (the mode the SEED estimator names, set
#       to mean_std_norm: mean and std as here) count every step row of a group, as stepNormalised = 1 does; no key
#       changes it
#   jsdAlpha = 0 (paper 0): seed-exact's setting: the playground's exact distillation, which the SEED trainer does not
#       have
#   advisorAlpha = 0 (paper 0): seed-exact's setting: the playground's exact distillation, which the SEED trainer does
#       not have
#   rewardDirected = 0 (paper 0): seed-exact's setting: the playground's exact distillation, which the SEED trainer
#       does not have
#   beta1 = 0.9 (paper 0.9): verl's actor optimizer is torch's AdamW at its defaults (0.9, 0.999, 1e-8), the paper's
#       values; the config names none of them
#   beta2 = 0.999 (paper 0.999): as beta1: torch's AdamW default, 0.999
#   eps = 1e-8 (paper 1e-8): as beta1: torch's AdamW default, 1e-8
#   trainGames = 0 (paper 0): verl-agent draws its tasks from the benchmark's whole training set; no key holds a run
#       to a fraction of it (the paper's data-fraction runs set none)
#   staticTasks = 8 (paper 16): seed-static's library, which the SEED trainer does not have
#   teacherEvery = 0 (paper 0): the playground's teacher check, a diagnostic the SEED trainer does not run
#   gradShareEvery = 4 (paper 0): the playground's gradient-share metrics, which the SEED trainer does not measure
#   teacherGames = 64 (paper 64): the playground's teacher check, a diagnostic the SEED trainer does not run
#   teacherRefresh = 1 (paper 1): the SEED trainer's analyzer and teacher are the policy of the update (policy_vllm):
#       teacherRefresh = 1, the paper's; no key refreshes them less often
#   rehearsal = 0 (paper 0): the playground's rehearsal of the warm start's skill examples; the SEED trainer's skill
#       SFT runs once, before RL (the launch script's first stage), and no key repeats it during RL
#   rehearsalBatch = 8 (paper 8): as rehearsal: the playground's, with no counterpart
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
: "${MODEL_PATH:?set MODEL_PATH to the model to train (a Hugging Face checkpoint)}"
STAGE="${STAGE:-all}"
N_GPUS="${N_GPUS:-8}"
OUT_DIR="${OUT_DIR:-$HERE/outputs}"
EXPERIMENT=seed-alfworld-tiny-seed1

if [[ "$STAGE" == all || "$STAGE" == sft ]]; then
  torchrun --standalone --nnodes=1 --nproc_per_node="$N_GPUS" -m verl.trainer.fsdp_sft_trainer \
    data.max_length=8192 \
    data.micro_batch_size_per_gpu=1 \
    "data.prompt_dict_keys=[]" \
    data.prompt_key=prompt \
    "data.response_dict_keys=[]" \
    data.response_key=response \
    data.train_batch_size=8 \
    "data.train_files=$HERE/sft_episode_skill_train.parquet" \
    data.truncation=error \
    "data.val_files=$HERE/sft_episode_skill_val.parquet" \
    model.enable_gradient_checkpointing=True \
    "model.partial_pretrain=$MODEL_PATH" \
    optim.lr=0.000005 \
    trainer.default_hdfs_dir=null \
    "trainer.default_local_dir=$OUT_DIR/sft" \
    "trainer.experiment_name=$EXPERIMENT-sft" \
    "trainer.logger=['console']" \
    trainer.project_name=seed-playground \
    trainer.total_epochs=3 \
    ulysses_sequence_parallel_size=1 \
    use_remove_padding=True
  SFT_MODEL="$(find "$OUT_DIR/sft" -maxdepth 1 -type d -name 'global_step_*' | sort -V | tail -n 1)"
  [[ -f "$SFT_MODEL/config.json" ]] || { echo "no SFT checkpoint under $OUT_DIR/sft" >&2; exit 1; }
  MODEL_PATH="$SFT_MODEL"
fi

if [[ "$STAGE" == all || "$STAGE" == rl ]]; then
  python3 -m examples.data_preprocess.prepare --mode text --train_data_size 16 --val_data_size 128
  python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.actor.clip_ratio=0.2 \
    actor_rollout_ref.actor.clip_ratio_high=0.2 \
    actor_rollout_ref.actor.clip_ratio_low=0.2 \
    actor_rollout_ref.actor.fsdp_config.optimizer_offload=False \
    actor_rollout_ref.actor.fsdp_config.param_offload=False \
    actor_rollout_ref.actor.grad_clip=1.0 \
    actor_rollout_ref.actor.invalid_action_penalty_coef=0.1 \
    actor_rollout_ref.actor.kl_loss_coef=0.01 \
    actor_rollout_ref.actor.kl_loss_type=low_var_kl \
    actor_rollout_ref.actor.opd_gate_beta=5.0 \
    actor_rollout_ref.actor.opd_loss_coef=0.3 \
    actor_rollout_ref.actor.optim.lr=0.000001 \
    actor_rollout_ref.actor.optim.weight_decay=0.01 \
    actor_rollout_ref.actor.ppo_epochs=1 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=32 \
    actor_rollout_ref.actor.ppo_mini_batch_size=256 \
    actor_rollout_ref.actor.use_invalid_action_penalty=True \
    actor_rollout_ref.actor.use_kl_loss=True \
    actor_rollout_ref.model.enable_gradient_checkpointing=True \
    "actor_rollout_ref.model.path=$MODEL_PATH" \
    actor_rollout_ref.model.use_remove_padding=True \
    actor_rollout_ref.ref.fsdp_config.param_offload=True \
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=32 \
    actor_rollout_ref.rollout.enable_chunked_prefill=False \
    actor_rollout_ref.rollout.enforce_eager=False \
    actor_rollout_ref.rollout.free_cache_engine=False \
    actor_rollout_ref.rollout.gpu_memory_utilization=0.6 \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=32 \
    actor_rollout_ref.rollout.max_model_len=20480 \
    actor_rollout_ref.rollout.max_num_batched_tokens=20480 \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.temperature=1.0 \
    actor_rollout_ref.rollout.tensor_model_parallel_size=1 \
    actor_rollout_ref.rollout.val_kwargs.do_sample=True \
    actor_rollout_ref.rollout.val_kwargs.temperature=0.4 \
    algorithm.adv_estimator=seed \
    algorithm.filter_groups.enable=False \
    algorithm.filter_groups.max_num_gen_batches=1 \
    algorithm.gamma=0.95 \
    algorithm.seed.analysis_backend=policy_vllm \
    algorithm.seed.analysis_context_length=16384 \
    algorithm.seed.analysis_include_episode_summary=False \
    algorithm.seed.analysis_max_completion_tokens=4096 \
    algorithm.seed.analysis_max_step_skills_per_traj=0 \
    algorithm.seed.analysis_num_workers=1 \
    algorithm.seed.analysis_prompt_version=seed \
    algorithm.seed.enable_analysis=True \
    algorithm.seed.episode_skill_teacher_advantage_w=0.0 \
    algorithm.seed.failed_only=False \
    algorithm.seed.mode=mean_std_norm \
    algorithm.seed.normalize_teacher_adv=False \
    algorithm.seed.selector=llm \
    algorithm.seed.skill_mode=episode_only \
    algorithm.seed.skill_teacher_mode=step_priority \
    algorithm.seed.step_advantage_w=0.0 \
    algorithm.seed.step_skill_teacher_advantage_w=0.0 \
    algorithm.use_kl_in_reward=False \
    data.filter_overlong_prompts=True \
    data.max_prompt_length=2048 \
    data.max_response_length=512 \
    data.return_raw_chat=True \
    data.train_batch_size=16 \
    "data.train_files=$HOME/data/verl-agent/text/train.parquet" \
    data.truncation=left \
    data.val_batch_size=128 \
    "data.val_files=$HOME/data/verl-agent/text/test.parquet" \
    env.env_name=alfworld/AlfredTWEnv \
    env.history_length=5 \
    env.max_steps=30 \
    env.resources_per_worker.num_cpus=0.1 \
    env.rollout.n=8 \
    env.seed=1 \
    trainer.critic_warmup=0 \
    "trainer.default_local_dir=$OUT_DIR/rl" \
    "trainer.experiment_name=$EXPERIMENT" \
    "trainer.logger=['console']" \
    "trainer.n_gpus_per_node=$N_GPUS" \
    trainer.nnodes=1 \
    trainer.project_name=seed-playground \
    trainer.save_freq=10 \
    trainer.test_freq=5 \
    trainer.total_epochs=160 \
    trainer.val_before_train=False \
    "$@"
fi

// autoagent's page: start a task and follow it live (each step from the run's event stream, the reply as the model
// writes it), answer its approvals, stop and resume it, and read the tasks, past runs and memories the server keeps.
// Plain script, no library and nothing from another host: every request goes to this server, with its cookie.
'use strict';

const API = '/ap/v1/agent/tasks';
const $ = (id) => document.getElementById(id);
const current = { task: null, stopping: false, busy: false, tokens: 0, seconds: 0 };

async function call(url, options = {}) {
  const response = await fetch(url, { credentials: 'same-origin', ...options });
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw new Error(body.message || `${response.status} ${response.statusText}`);
  }
  return response.status === 204 ? null : response.json();
}

const post = (url, body) => call(url, { method: 'POST', headers: { 'Content-Type': 'application/json' },
                                        body: JSON.stringify(body ?? {}) });

function element(tag, text, className) {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}

function say(text) { $('run-status').textContent = text; }

// The Server-Sent Events of a fetch() response, as [event, data] pairs.
async function* events(response) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const kind = /^event: (.*)$/m.exec(block);
      const data = /^data: (.*)$/m.exec(block);
      if (kind && data) yield [kind[1], JSON.parse(data[1])];
    }
  }
}

function showStep(event) {
  const item = element('li', undefined, [event.success ? '' : 'failed', event.agents.length ? 'sub' : '']
    .join(' ').trim());
  const who = event.agents.length ? `${event.agents.join(' › ')} · ` : '';
  const action = event.action ? `${event.action.name} ${JSON.stringify(event.action.args || {})}` : event.kind;
  item.append(element('div', `${who}step ${event.step}: ${action}${event.success ? '' : ' (failed)'}`,
                      'step-head'));
  if (event.thought) item.append(element('div', `thought: ${event.thought}`));
  if (event.observation) item.append(element('pre', event.observation));
  $('steps').append(item);
}

function showSpent(maxSteps) {
  const steps = $('steps').querySelectorAll('li:not(.sub)').length;
  $('run-spent').textContent = `spent: ${steps}${maxSteps ? ' of ' + maxSteps : ''} steps · ` +
    `${current.tokens} tokens · ${current.seconds.toFixed(1)} s of model time`;
}

function heard(kind, data) {
  if (kind === 'run_started' && !data.agents.length) current.maxSteps = data.max_steps;
  if (kind === 'model_call_started' && !data.agents.length) {
    $('reply').textContent = '';
    say(`working: step ${data.last_step + 1}…`);
  } else if (kind === 'reply_delta') {
    $('reply-box').hidden = false;
    $('reply').textContent += data.text;
  } else if (kind === 'model_call_ended') {
    current.tokens += data.input_tokens + data.output_tokens;
    current.seconds += data.seconds;
  } else if (kind === 'step_completed') {
    $('reply-box').hidden = true;
    showStep(data);
  }
  showSpent(current.maxSteps);
}

function showAnswer(step) {
  const run = (step.additional_output || {}).run;
  const finished = run && run.finished;
  const unsure = run && run.stop_reason === 'unverified';
  const badge = $('answer-status');
  badge.textContent = finished ? 'finished' : unsure ? 'unsure (unverified)' : `stopped (${run ? run.stop_reason : 'error'})`;
  badge.className = `badge ${finished ? 'finished' : unsure ? 'unsure' : 'stopped'}`;
  $('answer-text').textContent = step.output || '';
  $('answer').hidden = false;
  const resumable = run && !finished && run.stop_reason !== 'unverified';
  $('resume').hidden = !resumable;
  say(finished ? 'finished' : unsure ? 'ended unsure: the answer could not be checked' :
      `stopped: ${run ? run.stop_reason : 'error'}${resumable ? ' (resumable)' : ''}`);
}

async function showFiles() {
  const list = $('files');
  list.replaceChildren();
  const { artifacts } = await call(`${API}/${current.task}/artifacts?page_size=100`);
  for (const artifact of artifacts) {
    const name = `${artifact.relative_path || ''}${artifact.file_name}`;
    const link = element('a', name);
    link.href = `${API}/${current.task}/artifacts/${artifact.artifact_id}`;
    link.download = artifact.file_name;
    const item = element('li');
    item.append(link);
    list.append(item);
  }
  if (!artifacts.length) list.append(element('li', 'none yet'));
}

// Run the task's steps one after another until it ends, asks, or is stopped; `input` answers a question.
async function drive(input) {
  if (current.busy) return;
  current.busy = true;
  current.stopping = false;
  $('stop').hidden = false;
  $('resume').hidden = true;
  $('approval').hidden = true;
  try {
    for (;;) {
      const response = await fetch(`${API}/${current.task}/steps/stream`, {
        method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(input === undefined ? {} : { input }) });
      if (!response.ok) throw new Error((await response.json().catch(() => ({}))).message || response.statusText);
      input = undefined;
      let step = null;
      for await (const [kind, data] of events(response)) {
        if (kind === 'step') step = data;
        else if (kind === 'error') throw new Error(data.message);
        else heard(kind, data);
      }
      await showFiles();
      if (!step) throw new Error('the step ended without an answer from the server');
      if (step.status === 'running') {  // an approval question: the next step's input answers it
        $('question').textContent = step.output;
        $('approval').hidden = false;
        say('waiting for your answer');
        $('feedback').focus();
        return;
      }
      if (step.is_last) { showAnswer(step); return; }
      if (current.stopping) { say('stopped (resumable)'); $('resume').hidden = false; return; }
    }
  } catch (error) {
    say(`error: ${error.message}`);
    $('resume').hidden = false;
  } finally {
    current.busy = false;
    $('stop').hidden = true;
    loadTasks();
    loadRuns();
  }
}

function openTask(task) {
  current.task = task.task_id;
  current.tokens = 0;
  current.seconds = 0;
  $('run').hidden = false;
  $('run-task').textContent = task.input;
  $('steps').replaceChildren();
  $('answer').hidden = true;
  $('approval').hidden = true;
  $('reply-box').hidden = true;
  $('run-spent').textContent = '';
}

$('start').addEventListener('submit', async (submitted) => {
  submitted.preventDefault();
  const settings = { protocol: $('protocol').value, max_steps: Number($('max-steps').value) };
  if ($('max-seconds').value) settings.max_seconds = Number($('max-seconds').value);
  try {
    const task = await post(API, { input: $('task').value, additional_input: { settings } });
    openTask(task);
    $('task').value = '';
    drive();
  } catch (error) {
    $('run').hidden = false;
    say(`error: ${error.message}`);
  }
});

$('approval').addEventListener('submit', (submitted) => {
  submitted.preventDefault();
  const choice = submitted.submitter ? submitted.submitter.value : 'y';
  const feedback = $('feedback').value.trim();
  const answer = choice === 'feedback' ? feedback || 'n' : choice;
  $('feedback').value = '';
  drive(answer);
});

$('stop').addEventListener('click', async () => {
  current.stopping = true;
  say('stopping: the run ends at its next model call');
  await post(`/ui/tasks/${current.task}/stop`).catch((error) => say(`error: ${error.message}`));
});

$('resume').addEventListener('click', () => { $('answer').hidden = true; drive(); });

async function openStoredTask(task) {
  openTask(task);
  const { steps } = await call(`${API}/${task.task_id}/steps?page_size=100`);
  for (const stored of steps) {
    for (const done of (stored.additional_output || {}).steps || []) {
      showStep({ ...done, step: done.number, agents: [], success: done.success !== false });
    }
  }
  const last = steps[steps.length - 1];
  await showFiles();
  if (last && last.is_last) showAnswer(last);
  else if (last && last.status === 'running') {
    $('question').textContent = last.output;
    $('approval').hidden = false;
    say('waiting for your answer');
  } else {
    say(steps.length ? 'paused' : 'not started');
    $('resume').hidden = false;
  }
}

async function loadTasks() {
  const { tasks } = await call(`${API}?page_size=100`);
  const list = $('tasks');
  list.replaceChildren();
  for (const task of tasks.reverse()) {
    const item = element('li', `${task.input.slice(0, 100)} `);
    const open = element('button', 'Open');
    open.type = 'button';
    open.setAttribute('aria-label', `Open the task: ${task.input.slice(0, 60)}`);
    open.addEventListener('click', () => openStoredTask(task));
    item.append(open);
    list.append(item);
  }
  if (!tasks.length) list.append(element('li', 'none yet'));
}

async function loadRuns() {
  const { runs } = await call('/ui/runs');
  const list = $('runs');
  list.replaceChildren();
  for (const run of runs) {
    const item = element('li', `${run.started.slice(0, 19).replace('T', ' ')} · ${run.status} · ${run.steps} steps · ` +
                               `${run.task.slice(0, 80)} `);
    const show = element('button', 'Transcript');
    show.type = 'button';
    show.setAttribute('aria-label', `Show the transcript of run ${run.run_id}`);
    show.addEventListener('click', async () => {
      const shown = await call(`/ui/runs/${encodeURIComponent(run.run_id)}`);
      $('transcript').textContent = shown.text;
      $('transcript').hidden = false;
      $('transcript').focus();
    });
    item.append(show);
    list.append(item);
  }
  if (!runs.length) list.append(element('li', 'none yet'));
}

function showMemories(memories, note) {
  const list = $('memories');
  list.replaceChildren();
  $('memory-note').textContent = note || `${memories.length} shown`;
  for (const memory of memories) {
    const score = memory.score === undefined ? '' : ` (score ${memory.score})`;
    const item = element('li', `#${memory.id} ${memory.task}${score}: ${memory.text || memory.summary || ''} `);
    const forget = element('button', 'Forget');
    forget.type = 'button';
    forget.setAttribute('aria-label', `Forget memory ${memory.id}`);
    forget.addEventListener('click', async () => {
      await call(`/ui/memory/${encodeURIComponent(memory.id)}`, { method: 'DELETE' });
      item.remove();
      $('memory-note').textContent = `forgot memory ${memory.id}`;
    });
    item.append(forget);
    list.append(item);
  }
}

$('memory-search').addEventListener('submit', async (submitted) => {
  submitted.preventDefault();
  const found = await call(`/ui/memory/search?q=${encodeURIComponent($('query').value)}`);
  showMemories(found.memories, found.note || `${found.memories.length} found`);
});

$('memory-all').addEventListener('click', async () => {
  const listed = await call('/ui/memory');
  showMemories(listed.memories, `${listed.memories.length} of ${listed.total}`);
});

async function followBatch() {
  const batch = await call('/ui/batch');
  const rows = $('batch-tasks');
  rows.replaceChildren();
  for (const task of batch.tasks) {
    const row = element('tr');
    row.append(element('td', `${task.id}: ${task.task.slice(0, 80)}`), element('td', task.state),
               element('td', task.answer.slice(0, 200)));
    rows.append(row);
  }
  $('batch-status').textContent = `${batch.done} of ${batch.total} done · ` +
    (batch.running ? 'a batch is writing its results' : 'no batch is running on it');
  if (batch.running || batch.done < batch.total) setTimeout(followBatch, 2000);
}

loadTasks();
loadRuns();
if (!$('batch').hidden) followBatch();

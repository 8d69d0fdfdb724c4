// Where the CPU heap's memory comes from in a worker thread: the thread's entry (thread_node_entry.ts,
// thread.worker.ts) provides the memory the main thread created, before it imports anything that reads the
// heap (heap.ts creates its memory when first imported, and takes this one when it is set).
let provided: WebAssembly.Memory | null = null;

export function provideHeap(memory: WebAssembly.Memory): void {
  provided = memory;
}

export function providedHeap(): WebAssembly.Memory | null {
  return provided;
}

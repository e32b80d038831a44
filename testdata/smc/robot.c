/* robot.c -- Wyvern's version of the robot-control benchmark of the LODIN / Plasma-Lab SMC
 * paper (seed 003, Section 5.2, Listings 1.6-1.8: robot.c, platform.c, interface.h, here in
 * one file).
 *
 * Program: a robot stands on the bottom-left tile of a 9x9 grid and has to find the
 * top-right tile (the goal). The grid ("platform") is guarded by a mutex. Two threads:
 *   - observer (process 1), while comm.sense: stores goal(), then whether it can move
 *     up, down, right, left (lookUp() etc., each under the mutex), into the shared Comm;
 *   - runner (process 2), while !comm.goal: picks a direction uniformly at random
 *     (wyvern_uniform(0, 3); the paper: rand() % 4) and, if the observer's last report
 *     says that direction is safe, moves (moveUp() etc., under the mutex); at the goal it
 *     clears comm.sense.
 * The observer's report can be stale (the robot moved since), so a move can leave the
 * grid: then VERIFIER_crash() is called and the runner spins forever holding the mutex
 * (the run ends at the step bound). main (process 0) initialises the grid, starts both
 * threads, joins them and calls VERIFIER_Done(), which happens only if the goal was
 * found. The random walk is long: most runs are still walking at 5000 steps.
 *
 * Property (LODIN proposition [0.VERIFIER_Done]: process 0, main, is about to call
 * VERIFIER_Done):
 *     Pr[<=5000](<> [0.VERIFIER_Done])
 * LODIN (Table 1): 2507 runs, 38 satisfying, CI [0.01, 0.02].
 *
 * With -DWYVERN_MEASURE, VERIFIER_Done() calls the undefined reach_error(), so a satisfying
 * run ends in the error state ReachError (wyvern run --json).
 */
#include <pthread.h>
#include <stdint.h>
#include "wyvern.h"

#define WIDTH 9
#define HEIGHT 9

#ifdef WYVERN_MEASURE
void reach_error(void);
#endif

/* ---- platform (Listing 1.7) ---- */

pthread_mutex_t mutex;
int32_t grid[WIDTH * HEIGHT];
int32_t xPos = 0;
int32_t yPos = HEIGHT - 1;

__attribute__((noinline)) void VERIFIER_Done(void) {
#ifdef WYVERN_MEASURE
  reach_error();
#endif
}

__attribute__((noinline)) void VERIFIER_crash(void) {
  while (1) {
  }
}

void lock(void) { pthread_mutex_lock(&mutex); }

void unlock(void) { pthread_mutex_unlock(&mutex); }

void initGrid(void) {
  for (int32_t w = 0; w < WIDTH; w++) {
    for (int32_t h = 0; h < HEIGHT; h++) {
      grid[WIDTH * h + w] = 2;
    }
  }
  grid[WIDTH * 0 + WIDTH - 1] = 1; /* the goal: top-right */
  pthread_mutex_init(&mutex, 0);
}

int32_t innerLookUp(void) {
  if (yPos - 1 >= 0)
    return grid[WIDTH * (yPos - 1) + xPos];
  return 0;
}

int32_t innerLookDown(void) {
  if (yPos + 1 < HEIGHT)
    return grid[WIDTH * (yPos + 1) + xPos];
  return 0;
}

int32_t innerLookRight(void) {
  if (xPos + 1 < WIDTH)
    return grid[WIDTH * yPos + xPos + 1];
  return 0;
}

int32_t innerLookLeft(void) {
  if (xPos - 1 >= 0)
    return grid[WIDTH * yPos + xPos - 1];
  return 0;
}

void moveUp(void) {
  lock();
  if (innerLookUp())
    yPos--;
  else
    VERIFIER_crash();
  unlock();
}

void moveDown(void) {
  lock();
  if (innerLookDown())
    yPos++;
  else
    VERIFIER_crash();
  unlock();
}

void moveLeft(void) {
  lock();
  if (innerLookLeft())
    xPos--;
  else
    VERIFIER_crash();
  unlock();
}

void moveRight(void) {
  lock();
  if (innerLookRight())
    xPos++;
  else
    VERIFIER_crash();
  unlock();
}

int32_t lookUp(void) {
  lock();
  int32_t val = innerLookUp();
  unlock();
  return val;
}

int32_t lookDown(void) {
  lock();
  int32_t val = innerLookDown();
  unlock();
  return val;
}

int32_t lookLeft(void) {
  lock();
  int32_t val = innerLookLeft();
  unlock();
  return val;
}

int32_t lookRight(void) {
  lock();
  int32_t val = innerLookRight();
  unlock();
  return val;
}

int32_t goal(void) { return grid[yPos * WIDTH + xPos] == 1; }

/* ---- controller (Listing 1.6) ---- */

typedef struct {
  int up, down, left, right, goal, sense;
} Comm;

void *observer(void *inp) {
  Comm *comm = (Comm *)inp;
  while (comm->sense) {
    comm->goal = goal();
    comm->up = lookUp();
    comm->down = lookDown();
    comm->right = lookRight();
    comm->left = lookLeft();
  }
  return 0;
}

void *runner(void *inp) {
  Comm *comm = (Comm *)inp;
  int i = 0;
  while (!comm->goal) {
    i++;
    int32_t dir = wyvern_uniform(0, 3);
    switch (dir) {
    case 0:
      if (comm->up)
        moveUp();
      break;
    case 1:
      if (comm->down)
        moveDown();
      break;
    case 2:
      if (comm->left)
        moveLeft();
      break;
    case 3:
      if (comm->right)
        moveRight();
      break;
    }
  }
  comm->sense = 0;
  return 0;
}

void gridReady(void) {}

int main(void) {
  Comm comm;
  initGrid();
  gridReady();
  comm.up = comm.down = comm.left = comm.right = 0;
  comm.sense = 1;
  comm.goal = 0;
  pthread_t senser;
  pthread_t runnerr;
  pthread_create(&senser, 0, observer, &comm);
  pthread_create(&runnerr, 0, runner, &comm);
  pthread_join(senser, 0);
  pthread_join(runnerr, 0);
  VERIFIER_Done();
  return 0;
}
